import FitIQCache
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// The account file's format belongs to the cache: files written by released versions stay readable,
/// pending changes included, and files of a newer version are left alone.
struct AccountFileFormatTests {
    /// `Fixtures/account-v1.json`: written by fitiq-tui at schema version 1 (the 2026-11 release) after
    /// synced edits, offline edits (name, bio, units, language, two heights) and a health import made
    /// while the server was down.
    static let fixtureV1 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/account-v1.json")

    private func store(in folder: URL, holding fixture: URL) throws -> JSONFileProfileStore {
        let store = JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")))
        try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: store.fileURL)
        return store
    }

    @Test func readsAVersionOneFileWithEverythingItHolds() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let state = try await store(in: folder, holding: Self.fixtureV1).load()

            let profile = try #require(state.profile)
            #expect(profile.name == "Ana Lima")
            #expect(profile.bio == "Trail runner ☀️")
            #expect(profile.preferredUnitSystem == .imperial)
            #expect(profile.languageCode == "pt-BR")
            #expect(profile.heightCm == 182.88)
            #expect(profile.dateOfBirth == CalendarDate(year: 1983, month: 7, day: 20))
            #expect(profile.biologicalSex?.value == .female)
            #expect(profile.biologicalSex?.source == .health)
            #expect(profile.healthSync.healthDateOfBirth == CalendarDate(year: 1988, month: 4, day: 12))
            #expect(state.server.copy?.metadata.name == "Fixture Person")
            #expect(state.history(of: .height).count == 6)
            #expect(state.history(of: .height).filter(\.isSynced).count == 2)
            #expect(state.outbox.metadata?.keys == [.name, .bio, .preferredUnitSystem, .languageCode])
            #expect(state.outbox.physical?.includesHeight == true)
            #expect(state.outbox.physical?.includesBiologicalSex == true)
            #expect(state.outbox.progress.count == 4)
            #expect(state.pending.count == 6)
            // Why a try failed, held as the sentence of the day.
            #expect(
                state.outbox.metadata?.delivery.lastProblem
                    == .said("The server could not be reached: connection refused (is the server running?)"))
        }
    }

    /// Why the last try failed is kept as data, worded when shown, and beside it as the English sentence
    /// that is all a release before this one reads: a cache written now stays readable by it.
    @Test func aFailedTrysReasonIsKeptAsDataAndInEnglishForTheReleaseBefore() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            let problem = SyncProblem.remote(.unavailable(status: 503, message: "busy"))
            try await store.update { $0.outbox.metadata?.delivery.lastProblem = problem }

            #expect(try await store.load().outbox.metadata?.delivery.lastProblem == problem)
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any]
            let outbox = (written?["state"] as? [String: Any])?["outbox"] as? [String: Any]
            let delivery = (outbox?["metadata"] as? [String: Any])?["delivery"] as? [String: Any]
            #expect(delivery?["lastError"] as? String == "The server is unavailable (HTTP 503): busy")
            #expect(delivery?["problem"] != nil)
        }
    }

    /// A reason kept by the build before this one, as a message template and its values, is read as
    /// the English kept beside it: the rest of the file, and the change, are read as they were.
    @Test func aReasonOfAnEarlierShapeIsReadAsItsEnglish() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            let problem = SyncProblem.remote(.unreachable(message: .connectionRefused))
            try await store.update { $0.outbox.metadata?.delivery.lastProblem = problem }
            var file = try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any]
            var state = file?["state"] as? [String: Any]
            var outbox = state?["outbox"] as? [String: Any]
            var metadata = outbox?["metadata"] as? [String: Any]
            var delivery = metadata?["delivery"] as? [String: Any]
            let english = try #require(delivery?["lastError"] as? String)
            #expect(english == "The server could not be reached: connection refused (is the server running?)")
            let template = ["id": "connection refused (is the server running?)", "values": [:], "isVerbatim": false]
            delivery?["problem"] = ["remote": ["_0": ["unreachable": ["message": template]]]]
            metadata?["delivery"] = delivery
            outbox?["metadata"] = metadata
            state?["outbox"] = outbox
            file?["state"] = state
            try JSONSerialization.data(withJSONObject: file ?? [:]).write(to: store.fileURL)

            let reader = JSONFileProfileStore(
                folder: folder.appendingPathComponent("account"),
                lock: AccountLock(file: folder.appendingPathComponent("lock")))
            let read = try await reader.load()
            #expect(read.outbox.metadata?.delivery.lastProblem == .said(english))
            #expect(read.outbox.metadata?.keys == [.name, .bio, .preferredUnitSystem, .languageCode])
        }
    }

    @Test func writesBackTheSameStateItRead() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            let read = try await store.load()
            // A change forces a write; undoing it writes the original state again.
            try await store.update { $0.server.lastSyncAt = nil }
            try await store.update { $0.server.lastSyncAt = read.server.lastSyncAt }
            #expect(try await store.load() == read)
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any]
            // Written back in the current layout: the history in month segments beside it.
            #expect(written?["schemaVersion"] as? Int == 3)
            #expect(!fileNames(in: store.historyFolder).isEmpty)
            let reread = try await JSONFileProfileStore(
                folder: store.folder, lock: AccountLock(file: folder.appendingPathComponent("lock"))
            ).load()
            #expect(reread == read)
        }
    }

    /// `Fixtures/account-v2/`: written by fitiq-tui at schema version 2 after a first sync of 100
    /// heights (four month segments), then a height and a bio saved without syncing (the height in
    /// the journal).
    static let fixtureV2 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/account-v2")

    @Test func readsAVersionTwoCacheWithItsSegmentsAndJournal() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let target = folder.appendingPathComponent("account")
            try FileManager.default.copyItem(at: Self.fixtureV2, to: target)
            let lock = AccountLock(file: folder.appendingPathComponent("lock"))

            let overview = try await JSONFileProfileStore(folder: target, lock: lock).overview()
            #expect(!overview.isComplete)
            #expect(overview.summaries[ProgressEntry.heightType]?.count == 101)
            #expect(overview.state.profile?.bio == "Queued")

            let store = JSONFileProfileStore(folder: target, lock: lock)
            let state = try await store.load()
            #expect(state.history(of: .height).count == 101)
            #expect(state.history(of: .height).first?.quantity == 181)
            #expect(state.history(of: .height).filter(\.isSynced).count == 100)
            #expect(state.outbox.metadata?.keys == [.bio])
            #expect(state.outbox.progress.count == 1)
            #expect(state.pending.count == 2)
        }
    }

    /// The previous release's cache (`Fixtures/account-v2/`: heights only, a height and a bio pending,
    /// the height's undo step written as `heightLogged`) is read by this one, which logs a weight beside
    /// it; the old undo step still undoes the height, and what is left reaches the server.
    @Test func thePreviousReleasesCacheIsConvertedAndItsPendingChangesDelivered() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let target = folder.appendingPathComponent("account")
            try FileManager.default.copyItem(at: Self.fixtureV2, to: target)
            let store = JSONFileProfileStore(
                folder: target, lock: AccountLock(file: folder.appendingPathComponent("lock")))
            // The server as the cache last saw it: no change there since.
            let harness = TestHarness(profile: try await store.load().server.copy)
            let signedIn = try await harness.signedIn()
            let account = Account(
                key: signedIn.key, email: signedIn.email, store: store, sessions: harness.sessions(of: signedIn),
                backend: Backend(auth: harness.backend, profiles: harness.backend, progress: harness.backend),
                environment: harness.environment)

            // This release undoes the bio (the save writes the converted file), then, with the step the
            // previous release wrote, the pending height; then it logs a weight beside the heights.
            let bio = try await account.undo()
            #expect(bio?.description == "the change of bio")
            let heightStep = try await account.undo()
            #expect(heightStep?.description == "the height 181.0 cm logged on 2026-11-25")
            #expect(heightStep.map { if case .entryLogged = $0 { true } else { false } } == true)
            try await account.apply(.measurement(.weight, 80.5))
            let converted = try await store.load()
            #expect(converted.history(of: .height).count == 100)
            #expect(converted.history(of: .weight).map(\.quantity) == [80.5])

            let report = try await account.syncNow()
            let left = try await store.load().pending.changes(timeZone: .utc)
            #expect(report.isSynced, "\(report) \(left)")
            let posted = await harness.backend.requests(.logProgress).compactMap { request -> String? in
                guard case .logProgress(let entry) = request else { return nil }
                return "\(entry.type) \(entry.quantity)"
            }
            #expect(posted == ["weight 80.5"])
            #expect(await harness.backend.requests(.updateMetadata).isEmpty)
            let written =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: target.appendingPathComponent("account.json"))) as? [String: Any]
            #expect(written?["schemaVersion"] as? Int == 3)
        }
    }

    @Test func aVersionOneFileUpgradedByASaveKeepsEveryPendingChangeAcrossARestart() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            let read = try await store.load()
            // Any save upgrades the file.
            try await store.update { $0.server.lastSyncAt = $0.server.lastSyncAt?.addingTimeInterval(1) }

            // A restarted process reads the new layout.
            let lock = AccountLock(file: folder.appendingPathComponent("lock.2"))
            let upgraded = try await JSONFileProfileStore(folder: store.folder, lock: lock).load()
            #expect(upgraded.pending.count == 6)
            #expect(upgraded.outbox == read.outbox)
            #expect(upgraded.undoLog == read.undoLog)
            #expect(Set(upgraded.history.map(\.id)) == Set(read.history.map(\.id)))
            #expect(upgraded.history(of: .height).map(\.quantity) == read.history(of: .height).map(\.quantity))
            let summary = try await JSONFileProfileStore(folder: store.folder, lock: lock).overview()
            #expect(summary.summaries[ProgressEntry.heightType]?.count == 6)
        }
    }

    @Test func theFixturesPendingChangesReachTheServer() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            // Given a signed-in session on the in-memory backend and the fixture as the account's cache
            let harness = TestHarness()
            let signedIn = try await harness.signedIn()
            let store = try store(in: folder, holding: Self.fixtureV1)
            let account = Account(
                key: signedIn.key, email: signedIn.email, store: store, sessions: harness.sessions(of: signedIn),
                backend: Backend(auth: harness.backend, profiles: harness.backend, progress: harness.backend),
                environment: harness.environment)

            // When it syncs (the fixture's changes were waiting out a backoff: `sync` sends them at once)
            let report = try await account.syncNow()

            // Then every pending change was sent: the metadata, the height and sex, and four heights
            #expect(report.isSynced)
            let metadata = await harness.backend.requests(.updateMetadata)
            #expect(
                metadata == [
                    .updateMetadata(
                        ProfileMetadata(
                            name: "Ana Lima", bio: "Trail runner ☀️", preferredUnitSystem: .imperial,
                            languageCode: "pt-BR"))
                ])
            let physical = await harness.backend.requests(.updatePhysical)
            #expect(physical == [.updatePhysical(PhysicalPatch(heightCm: 182.88, biologicalSex: .female))])
            let posted = await harness.backend.requests(.logProgress).compactMap { request -> Double? in
                guard case .logProgress(let entry) = request else { return nil }
                return entry.quantity
            }
            #expect(posted.count == 4)
            #expect(posted.contains(182.88) && posted.contains(178))
            #expect(try await store.load().pending.count == 0)
        }
    }

    @Test func theUndoLogAndQueuedDeletionsSurviveARestart() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            var state = try await store.load()
            let index = try #require(state.history.firstIndex { $0.type == Metric.height.type && $0.serverId != nil })
            // What a dropped removal brings back: notes and source too.
            state.history[index].notes = "at the clinic"
            state.history[index].source = .health
            let entry = state.history[index]
            try state.removeEntry(entry)
            state.undoLog.remember(.metadata(previous: ProfileMetadata(name: "Old"), wording: .fields([.name])))
            state.undoLog.remember(
                .entryRemoved(
                    entry, wasLatest: false, wording: .removed(UndoReading(entry, in: .utc, unitSystem: .imperial))))
            state.undoLog.remember(
                .entryLogged(
                    entryId: UUID(), previousHeight: 170, previousMeasuredAt: Date(timeIntervalSince1970: 5),
                    wording: .logged(
                        UndoReading(
                            type: Metric.height.type, value: 170, day: CalendarDate(daysSince1970: 20_000),
                            unitSystem: .metric))))
            state.undoLog.remember(
                .entryCorrected(before: entry, afterId: UUID(), wasLatest: true, wording: .text("a fix")))
            let written = state
            try await store.update { $0 = written }

            // A new store object: what a restarted process reads.
            let reread = try await JSONFileProfileStore(
                folder: store.folder, lock: AccountLock(file: folder.appendingPathComponent("lock"))
            ).load()
            #expect(reread.undoLog == written.undoLog)
            #expect(reread.outbox.deletions == written.outbox.deletions)
            #expect(reread == written)
        }
    }

    @Test func aFileOfANewerVersionIsRefusedAndLeftInPlace() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try store(in: folder, holding: Self.fixtureV1)
            var text = try String(contentsOf: store.fileURL, encoding: .utf8)
            text = text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 4")
            try Data(text.utf8).write(to: store.fileURL)
            let bytes = try Data(contentsOf: store.fileURL)

            for attempt in ["load", "update"] {
                do {
                    if attempt == "load" {
                        _ = try await store.load()
                    } else {
                        try await store.update { $0.server.lastSyncAt = nil }
                    }
                    Issue.record("\(attempt) must refuse a newer file")
                } catch let error as CacheError {
                    #expect(error == .newerVersion(path: store.fileURL.path, version: 4, supported: 3))
                    #expect(error.description.contains("newer fitiq-tui"))
                    #expect(error.description.contains(store.fileURL.path))
                }
            }
            // Untouched and not moved aside.
            #expect(try Data(contentsOf: store.fileURL) == bytes)
            let siblings = try FileManager.default.contentsOfDirectory(atPath: store.folder.path)
            #expect(siblings == ["account.json"])
        }
    }

    /// A store of `Fixtures/account-v2/` whose `account.json` has `text` replaced by `replacement`.
    private func fixtureV2(in folder: URL, replacing text: String, with replacement: String) throws
        -> JSONFileProfileStore
    {
        let target = folder.appendingPathComponent("account")
        try FileManager.default.copyItem(at: Self.fixtureV2, to: target)
        let file = target.appendingPathComponent("account.json")
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: text, with: replacement)
        try Data(edited.utf8).write(to: file)
        return JSONFileProfileStore(folder: target, lock: AccountLock(file: folder.appendingPathComponent("lock")))
    }

    /// A file in this version's layout that says it is of a newer version: the first frame's read
    /// (without the history's index) refuses it as the whole read does, and leaves it in place.
    @Test func aNewerFileInThisLayoutIsRefusedByTheOverviewToo() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try fixtureV2(in: folder, replacing: #""schemaVersion":2"#, with: #""schemaVersion":4"#)
            let file = store.fileURL
            let bytes = try Data(contentsOf: file)

            await #expect(throws: CacheError.newerVersion(path: file.path, version: 4, supported: 3)) {
                _ = try await store.overview()
            }
            #expect(try Data(contentsOf: file) == bytes)
        }
    }

    /// A point of a summary's series is a pair: one of three numbers is damage, named by its field.
    @Test func aSeriesPointThatIsNotAPairIsNamedAndTheFileMovedAside() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = try fixtureV2(in: folder, replacing: "[787908600,170]", with: "[787908600,170,1]")

            do {
                _ = try await store.overview()
                Issue.record("a point of three numbers must not be read")
            } catch CacheError.corrupt(_, let movedTo, let reason) {
                #expect(reason == "the field summaries.height.series.[0] is invalid: a point is [seconds, value]")
                #expect(FileManager.default.fileExists(atPath: movedTo))
            }
        }
    }
}
