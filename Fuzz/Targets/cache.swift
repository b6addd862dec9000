// libFuzzer target `cache`: the cache files as FitIQCache reads them from disk.
//
// Compiled into the module FitIQCache (scripts/fuzz/build.sh), so it calls the internal decoder each
// store uses: every input is read as account.json (every schema version), a history segment (whose
// direct writer must write JSONEncoder's bytes), the history's index and a metric's summary (the parts
// account.json names), goals.json, session.json and current.json (through
// `CacheFile.decode`, the schema version check included) and as the config file. A file may be
// unreadable for any reason; one that is read must save and read back to the same bytes, and its
// dates and heights must be usable the way the history screens use them (the day, the height shown).
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    if let state = readBack(AccountFile.self, data) { use(state) }
    if let stored = readBack(AccountFileV2.self, data) {
        var state = stored.state
        state.history.entries = (stored.inlineHistory ?? []) + stored.summaries.values.flatMap(\.latest)
        use(state)
        for point in stored.summaries.values.flatMap(\.series) {
            _ = CalendarDate(containing: point.at, in: .utc)
            _ = Height.format(point.value, unitSystem: .imperial)
        }
    }
    if let contents = readBack(AccountFileV3.self, data) {
        var state = contents.state
        state.history.entries = contents.journal.compactMap {
            if case .put(let entry, _) = $0 { entry } else { nil }
        }
        use(state)
    }
    if let segments = readBack(HistoryIndexFile.self, data) {
        for segment in segments { _ = segment.key.fileName(generation: segment.count) }
    }
    if let (_, summary) = readBack(HistorySummaryFile.self, data) {
        use(AccountState(history: WholeHistory(entries: summary.latest)))
        for point in summary.series + summary.recent {
            _ = CalendarDate(containing: point.at, in: .utc)
            _ = Height.format(point.value, unitSystem: .imperial)
        }
    }
    if let segment = readBack(HistorySegmentFile.self, data) {
        // A month's file is written directly: the bytes must be JSONEncoder's.
        let direct = try? HistorySegmentFile.encoded(segment)
        guard direct == (try? CacheFileDecoding.compactEncoder.encode(HistorySegmentFile(value: segment))) else {
            fatalError("a history segment is written otherwise than JSONEncoder writes it: \(segment)")
        }
        use(AccountState(history: WholeHistory(entries: segment.entries)))
    }
    if let goals = readBack(GoalsFile.self, data) {
        for goal in goals.known {
            _ = goal.by.map { $0.instant(atHour: 12, in: .utc) }
            _ = goal.plan(at: Date(), in: .utc)
            _ = goal.metric?.format(goal.target, unitSystem: .imperial)
        }
    }
    readBack(SessionFile.self, data)
    readBack(CurrentAccountFile.self, data)
    if let config = try? ConfigFile.decode(data) {
        let written: Data
        do {
            written = try JSONEncoder().encode(config)
        } catch {
            fatalError("a config file read cannot be written: \(error)")
        }
        guard (try? ConfigFile.decode(written)) == config else { fatalError("a config file does not read back") }
    }
    return 0
}

/// What the profile and history screens do with an account read from the cache.
private func use(_ state: AccountState) {
    let zone = LocalZone.fixed(secondsEastOfUTC: -5 * 3600)
    for entry in state.history {
        _ = CalendarDate(containing: entry.loggedAt, in: zone)
        _ = Height.format(entry.quantity, unitSystem: .imperial)
    }
    for instant in [state.server.lastSyncAt, state.server.historyCheckedAt, state.profile?.updatedAt].compactMap({ $0 })
    {
        _ = CalendarDate(containing: instant, in: zone)
    }
    if let height = state.profile?.heightCm { _ = Height.format(height, unitSystem: .imperial) }
}

/// Decodes `data` as a `Format` file; what decodes must encode, and read back to the same encoding.
@discardableResult
private func readBack<Format: VersionedFileFormat>(_ format: Format.Type, _ data: Data) -> Format.Value? {
    let value: Format.Value
    switch CacheFile<Format>.decode(data) {
    case .value(let read): value = read
    case .unreadable(let reason):
        precondition(!reason.isEmpty)
        return nil
    case .missing, .newer: return nil
    }
    let first = encode(Format(value: value))
    guard case .value(let again) = CacheFile<Format>.decode(first) else {
        fatalError(
            "\(Format.self): a file read cannot be read back after saving: \(String(decoding: first, as: UTF8.self))")
    }
    let second = encode(Format(value: again))
    guard first == second else {
        fatalError(
            "\(Format.self) changes when saved again:\n\(String(decoding: first, as: UTF8.self))\n"
                + String(decoding: second, as: UTF8.self))
    }
    return value
}

private func encode<Format: VersionedFileFormat>(_ file: Format) -> Data {
    do {
        return try CacheFileDecoding.encoder.encode(file)
    } catch {
        fatalError("\(Format.self): a file read cannot be saved: \(error)")
    }
}
