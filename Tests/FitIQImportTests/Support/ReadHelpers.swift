import FitIQCore
import Foundation

@testable import FitIQImport

/// What one read produced: the snapshot or error, and every progress report in order.
struct ReadOutcome: Sendable {
    var result: Result<HealthSnapshot, any Error>
    var reports: [HealthReadProgress]

    /// The snapshot, or the read's error rethrown.
    func snapshot() throws -> HealthSnapshot {
        try result.get()
    }

    /// The error as a ``HealthImportError``, if it is one.
    var importError: HealthImportError? {
        if case .failure(let error) = result { return error as? HealthImportError }
        return nil
    }
}

/// Reads `url` under a 60 s hang guard, collecting progress reports.
func readExport(_ url: URL, chunkSize: Int = 1 << 20) async throws -> ReadOutcome {
    let reports = Locked<[HealthReadProgress]>([])
    let source = AppleHealthExport(url: url, chunkSize: chunkSize)
    let result = try await withTimeout {
        do {
            return Result<HealthSnapshot, any Error>.success(
                try await source.read { report in reports.withLock { $0.append(report) } })
        } catch {
            return .failure(error)
        }
    }
    return ReadOutcome(result: result, reports: reports.value)
}

extension HealthSnapshot {
    /// The sample with the latest instant.
    var latestHeight: MeasurementSample? {
        samples(of: .height).max { $0.measuredAt < $1.measuredAt }
    }
}
