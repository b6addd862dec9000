import FitIQCache
import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// A command started cold (a new store over a cache with a long history) pushes a profile change and
/// writes what the server answered, and a sync reads what is new, reading `account.json` alone: no
/// history segment is decoded.
struct ColdSyncTests {
    @Test func aColdPushOfAProfileEditAndASyncOfWhatIsNewDecodeNoHistorySegment() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let clock = ManualClock()
            let backend = InMemoryBackend(profile: TestHarness.serverProfile, now: { clock.date() })
            let environment = SyncEnvironment(clock: clock, now: { clock.date() }, random: { 0.5 }, timeZone: .utc)
            func accounts() -> Accounts {
                Accounts(
                    server: TestHarness.server, apiKey: nil,
                    directory: JSONFileAccountDirectory(paths: CachePaths(root: root), now: { clock.date() }),
                    backend: Backend(auth: backend, profiles: backend, progress: backend), environment: environment)
            }
            let first = try await accounts().signIn(email: backend.email, password: await backend.password).account
            let start = clock.date().addingTimeInterval(-86_400)
            try await first.store.update { state in
                state.history = (0..<3_000).map { day in
                    ProgressEntry(
                        serverId: "p-\(day)", quantity: 170 + Double(day % 50) / 10,
                        loggedAt: start.addingTimeInterval(-Double(3_000 - day) * 86_400), source: .server)
                }
            }

            // Another process: the edit, then its push (conflict check, PUT, acknowledgement).
            let cold = try #require(try await accounts().current())
            let store = try #require(cold.store as? JSONFileProfileStore)
            #expect(try await cold.updateMetadata(bio: "Trail runner"))
            let report = try await cold.push()

            #expect(report.isSynced)
            #expect(await backend.profile?.metadata.bio == "Trail runner")
            // account.json, decoded once per change of its bytes by another hand: never a segment.
            #expect(store.counters.filesDecoded == 1, "\(store.counters)")
            #expect(store.counters.filesWritten == 3)  // the save, the claim, the acknowledgement
            let summary = try #require(try await store.overview().summaries[ProgressEntry.heightType])
            #expect(summary.count == 3_000)

            // Another device logged a height since: a cold sync reads what is new and merges it on the
            // latest entries, decoding no segment either.
            let newest = clock.date()
            await backend.setEntries([
                RemoteProgressEntry(id: "p-2999", type: "height", quantity: 170, loggedAt: start),
                RemoteProgressEntry(id: "elsewhere", type: "height", quantity: 171.5, loggedAt: newest),
            ])
            let again = try #require(try await accounts().current())
            let againStore = try #require(again.store as? JSONFileProfileStore)
            #expect(try await again.syncNow().isSynced)
            #expect(againStore.counters.filesDecoded == 1, "\(againStore.counters)")
            let after = try #require(try await againStore.overview().summaries[ProgressEntry.heightType])
            #expect(after.count == 3_001)
            #expect(after.latest.first?.serverId == "elsewhere")
            // The whole history, read now, holds it once, after the rest.
            let history = try await againStore.load().history
            #expect(history.count == 3_001 && history.last?.serverId == "elsewhere")
        }
    }

    @Test func aColdSyncOfAnOlderEntryGivesItTheServersId() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let clock = ManualClock()
            let backend = InMemoryBackend(profile: TestHarness.serverProfile, now: { clock.date() })
            let environment = SyncEnvironment(clock: clock, now: { clock.date() }, random: { 0.5 }, timeZone: .utc)
            func accounts() -> Accounts {
                Accounts(
                    server: TestHarness.server, apiKey: nil,
                    directory: JSONFileAccountDirectory(paths: CachePaths(root: root), now: { clock.date() }),
                    backend: Backend(auth: backend, profiles: backend, progress: backend), environment: environment)
            }
            let first = try await accounts().signIn(email: backend.email, password: await backend.password).account
            let start = clock.date().addingTimeInterval(-86_400)
            try await first.store.update { state in
                state.history = (0..<500).map { day in
                    ProgressEntry(
                        serverId: "p-\(day)", quantity: 170, loggedAt: start.addingTimeInterval(-Double(day) * 86_400),
                        source: .server)
                }
            }
            // An entry a year back, logged without sending: far older than the latest entries.
            let today = CalendarDate(containing: clock.date(), in: .utc)
            try await first.logHeight(168.5, on: today.adding(days: -365))

            // Another process sends it: the acknowledgement gives that older entry the server's id.
            let cold = try #require(try await accounts().current())
            #expect(try await cold.push().isSynced)

            let history = try await accounts().current()?.cached().history ?? []
            let older = try #require(history.first { $0.quantity == 168.5 })
            #expect(older.serverId != nil)
            #expect(history.filter { !$0.isSynced }.isEmpty)
            #expect(await backend.entries.filter { $0.quantity == 168.5 }.count == 1)
        }
    }
}
