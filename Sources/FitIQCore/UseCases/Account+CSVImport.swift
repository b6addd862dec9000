#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an import of readings did, per metric.
public struct ReadingsImportResult: Sendable, Equatable {
    public struct MetricResult: Sendable, Equatable {
        public var read = 0
        public var new = 0
        public var alreadyThere = 0
    }

    /// By metric id.
    public var metrics: [String: MetricResult] = [:]

    public subscript(metric: Metric) -> MetricResult {
        get { metrics[metric.id] ?? MetricResult() }
        set { metrics[metric.id] = newValue }
    }
}

extension Account {
    /// Adds the readings the history lacks (same metric, minute and value: already there), each a
    /// history entry and one queued `POST /progress`, in one save: all of them or none.
    ///
    /// When the file holds readings this machine has not seen, the server's history is read first (two
    /// seconds at most), so that readings it holds (imported on another machine, or before the cache
    /// was wiped) are not posted again.
    public func importReadings(_ readings: [MeasurementCSV.Reading]) async throws -> ReadingsImportResult {
        let known = Set(try await store.load().history.map(ReadingKey.init))
        let hasNew = readings.contains { reading in
            !known.contains(
                ReadingKey(
                    ProgressEntry(
                        type: reading.metric.type, quantity: reading.value, loggedAt: reading.loggedAt, source: .import)
                ))
        }
        if hasNew {
            let refresh = Task { try await engine.refreshHistory(full: false) }
            let deadline = Task {
                try? await environment.clock.sleep(for: .seconds(2))
                refresh.cancel()
            }
            _ = await refresh.result
            deadline.cancel()
        }
        return try await store.update { state in
            guard state.profile != nil else { throw AccountError.profileNotLoaded }
            var result = ReadingsImportResult()
            var seen: [ReadingKey: Int] = [:]
            for (index, entry) in state.history.enumerated() { seen[ReadingKey(entry)] = index }
            for reading in readings.sorted(by: { $0.loggedAt < $1.loggedAt }) {
                result[reading.metric].read += 1
                let source = reading.source ?? .import
                let key = ReadingKey(
                    ProgressEntry(
                        type: reading.metric.type, quantity: reading.value, loggedAt: reading.loggedAt, source: source))
                if let index = seen[key] {
                    // Known only as the server's: the file says where it came from (kept here, never sent).
                    if state.history[index].source == .server, source != .server, source != .import {
                        state.history[index].source = source
                    }
                    result[reading.metric].alreadyThere += 1
                    continue
                }
                state.record(reading.metric, reading.value, measuredAt: reading.loggedAt, source: source)
                seen[key] = state.history.count - 1  // recorded at the end
                result[reading.metric].new += 1
            }
            return result
        }
    }
}
