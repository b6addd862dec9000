#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A characteristic as the health source recorded it.
public enum HealthValue<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The source holds a value.
    case value(Value)
    /// The source says it is not set.
    case notSet
    /// The source holds something fitiq-tui does not know (a value from a newer export format).
    case unknown(String)
    /// The source has no such record at all.
    case missing
}

/// One height measurement from the health source.
public struct HeightSample: Sendable, Equatable {
    public var centimetres: Double
    /// The instant of the measurement (offsets in the export already applied).
    public var measuredAt: Date

    public init(centimetres: Double, measuredAt: Date) {
        self.centimetres = centimetres
        self.measuredAt = measuredAt
    }
}

/// Everything fitiq-tui takes from one reading of the health source.
public struct HealthSnapshot: Sendable, Equatable {
    public var biologicalSex: HealthValue<BiologicalSex>
    public var dateOfBirth: HealthValue<CalendarDate>
    public var heights: [HeightSample]
    /// When the health data was exported, if the source says.
    public var exportedAt: Date?

    public init(
        biologicalSex: HealthValue<BiologicalSex>, dateOfBirth: HealthValue<CalendarDate> = .missing,
        heights: [HeightSample] = [], exportedAt: Date? = nil
    ) {
        self.biologicalSex = biologicalSex
        self.dateOfBirth = dateOfBirth
        self.heights = heights
        self.exportedAt = exportedAt
    }
}

/// How far a reading of the health source has got.
public struct HealthReadProgress: Sendable, Equatable {
    public var bytesRead: Int64
    public var totalBytes: Int64?

    public init(bytesRead: Int64, totalBytes: Int64?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}

/// The user's health data (an Apple Health export on Linux): the only source of biological sex.
public protocol HealthSource: Sendable {
    /// Reads the source, reporting progress as it goes; cancelled with the calling task.
    func read(progress: @escaping @Sendable (HealthReadProgress) -> Void) async throws -> HealthSnapshot
    /// What to call the source when telling the user about the last import (the file's name).
    var name: String? { get }
}

extension HealthSource {
    public var name: String? { nil }
}
