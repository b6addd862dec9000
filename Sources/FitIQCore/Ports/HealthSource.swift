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

/// One measurement from the health source: a height, a weight or a body fat reading.
public struct MeasurementSample: Sendable, Equatable {
    /// The metric's place in ``Metric/all``: a sample is 24 bytes, however many an export holds.
    private let metricIndex: UInt8
    /// The value in the metric's unit (cm, kg, %), converted from the unit the source recorded it in.
    public var value: Double
    /// The instant of the measurement (offsets in the export already applied).
    public var measuredAt: Date

    public init(_ metric: Metric, value: Double, measuredAt: Date) {
        metricIndex = UInt8(Metric.all.firstIndex(of: metric) ?? 0)
        self.value = value
        self.measuredAt = measuredAt
    }

    public var metric: Metric { Metric.all[Int(metricIndex)] }
}

/// Everything fitiq-tui takes from one reading of the health source.
public struct HealthSnapshot: Sendable, Equatable {
    public var biologicalSex: HealthValue<BiologicalSex>
    public var dateOfBirth: HealthValue<CalendarDate>
    /// Every measurement of every metric, as the source holds them (the same reading may appear more
    /// than once, written by several sources).
    public var samples: [MeasurementSample]
    /// When the health data was exported, if the source says.
    public var exportedAt: Date?
    /// Steps, sleep, food and the rest of the day's activity, gathered per day and source.
    public var activity = ActivityDays()
    /// Activity records left out (a negative or absurd value, a stretch that ends before it starts):
    /// the first few, by line of the export.
    public var refusedRecords: [BadRow] = []
    /// How many activity records were left out in all.
    public var refusedRecordCount = 0

    public init(
        biologicalSex: HealthValue<BiologicalSex>, dateOfBirth: HealthValue<CalendarDate> = .missing,
        samples: [MeasurementSample] = [], exportedAt: Date? = nil
    ) {
        self.biologicalSex = biologicalSex
        self.dateOfBirth = dateOfBirth
        self.samples = samples
        self.exportedAt = exportedAt
    }

    /// The samples of `metric`, in the source's order.
    public func samples(of metric: Metric) -> [MeasurementSample] {
        samples.filter { $0.metric == metric }
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

    /// Reads the source (reporting progress) into the change that imports it (``Account/apply(_:sending:)``).
    public func importRequest(progress: @escaping @Sendable (HealthReadProgress) -> Void = { _ in }) async throws
        -> ChangeRequest
    {
        .importHealth(try await read(progress: progress), fileName: name)
    }
}
