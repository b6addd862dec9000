import FitIQCache
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// A command started cold (a new store over a cache with a long history) pushes a profile change and
/// writes what the server answered, and a sync reads what is new, reading `account.json` alone: no
/// history segment is decoded.
struct ColdSyncTests {
    @Test func aColdPushOfAProfileEditAndASyncOfWhatIsNewDecodeNoHistorySegment() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let machines = Machines(root: root)
            let (clock, backend) = (machines.clock, machines.backend)
            _ = try await machines.signedIn(withSyncedHistory: 3_000)

            // Another process: the edit, then its push (conflict check, PUT, acknowledgement).
            let cold = try #require(try await machines.accounts().current())
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
            // latest entries, decoding no segment either; nor do the whole reads of the metrics never
            // logged (weight, body fat).
            let newest = clock.date()
            await backend.setEntries([
                RemoteProgressEntry(
                    id: "p-0", type: "height", quantity: 170, loggedAt: machines.syncedHistory(1)[0].loggedAt),
                RemoteProgressEntry(id: "elsewhere", type: "height", quantity: 171.5, loggedAt: newest),
            ])
            let again = try #require(try await machines.accounts().current())
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

    /// A day of more readings than the latest entries held: a sync's read of what is new (from a day
    /// before the newest synced entry) gives them again, and finds them known in their month alone,
    /// without reading the rest of the history.
    @Test func aSyncOverADayOfManyKnownReadingsReadsTheirMonthAlone() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let machines = Machines(root: root)
            let (clock, backend) = (machines.clock, machines.backend)
            let account = try await machines.signedIn()
            let yesterday = clock.date().addingTimeInterval(-86_400)
            let busyDay = (0..<60).map { minute in
                ProgressEntry(
                    serverId: "busy-\(minute)", type: Metric.weight.type, quantity: 70 + Double(minute) / 10,
                    loggedAt: yesterday.addingTimeInterval(-Double(minute) * 60), source: .server)
            }
            let year = (1...365).map { day in
                ProgressEntry(
                    serverId: "day-\(day)", type: Metric.weight.type, quantity: 72,
                    loggedAt: yesterday.addingTimeInterval(-Double(day) * 86_400), source: .server)
            }
            let synced = busyDay + year
            try await account.store.update { $0.history.entries = synced }
            let elsewhere = RemoteProgressEntry(id: "elsewhere", type: "weight", quantity: 71.5, loggedAt: clock.date())
            await backend.setEntries(
                synced.map {
                    RemoteProgressEntry(
                        id: $0.serverId ?? "", type: "weight", quantity: $0.quantity, loggedAt: $0.loggedAt)
                }
                    + [elsewhere])

            let cold = try #require(try await machines.accounts().current())
            let store = try #require(cold.store as? JSONFileProfileStore)
            #expect(try await cold.syncNow().isSynced)

            // account.json, and the busy day's month (or two, on a month's first day): not the year.
            #expect(store.counters.filesDecoded <= 3, "\(store.counters)")
            let summary = try #require(try await store.overview().summaries[Metric.weight.type])
            #expect(summary.count == synced.count + 1)
            #expect(summary.latest.first?.serverId == "elsewhere")
            let weights = try await store.load().history(of: .weight)
            #expect(weights.count == synced.count + 1 && Set(weights.compactMap(\.serverId)).count == weights.count)
        }
    }

    /// Today, started cold over three years of daily water (two glasses a day), steps and mood, reads
    /// `account.json` alone: the last weeks come from each summary's recent points, and they give what
    /// the whole history gives. A daily goal met longer than those weeks reads the history's files
    /// for its streak.
    @Test func aColdTodayReadsNoHistorySegmentAndAgreesWithTheWholeHistory() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let machines = Machines(root: root)
            let account = try await machines.signedIn()
            let now = machines.clock.date()
            let entries = (0..<(3 * 365)).flatMap { day -> [ProgressEntry] in
                let evening = now.addingTimeInterval(-Double(day) * 86_400 - 3_600)
                return [
                    ProgressEntry(
                        serverId: "w\(day)", type: Metric.water.type, quantity: 0.25 + Double(day % 7) / 10,
                        loggedAt: evening, source: .server),
                    ProgressEntry(
                        serverId: "v\(day)", type: Metric.water.type, quantity: 0.5,
                        loggedAt: evening.addingTimeInterval(-7_200), source: .server),
                    ProgressEntry(
                        serverId: "s\(day)", type: Metric.steps.type, quantity: Double(4_000 + day % 11 * 500),
                        loggedAt: evening, source: .server),
                    ProgressEntry(
                        serverId: "m\(day)", type: Metric.mood.type, quantity: Double(1 + day % 10),
                        loggedAt: evening, source: .server),
                ]
            }
            try await account.store.update { $0.history.entries = entries }

            let cold = try #require(try await machines.accounts().current())
            let store = try #require(cold.store as? JSONFileProfileStore)
            let today = try await cold.today()
            #expect(store.counters.filesDecoded == 1, "\(store.counters)")
            let day = CalendarDate(containing: now, in: .utc)
            let whole = try await store.load()
            let expected = [Metric.steps, .water, .mood].map { metric in
                MetricToday(
                    values: DayValues(metric: metric, entries: whole.history(of: metric), in: .utc), goal: nil,
                    today: day)
            }
            #expect(today.map(\.metric) == [.steps, .water, .mood])
            #expect(today == expected)
            #expect(today[1].today == 0.75 + Double(0 % 7) / 10)

            // A goal of 0.5 l a day, met every day for three years: the streak goes past the summary's weeks.
            try await store.updateGoals {
                $0.set(Goal(metric: .water, target: 0.5, by: nil, setAt: now, start: nil))
            }
            let withGoal = try #require(try await machines.accounts().current())
            let streak = try await withGoal.today().first { $0.metric == .water }?.dailyGoal?.streak
            #expect(streak == MetricToday.streakDays)
        }
    }

    @Test func aColdSyncOfAnOlderEntryGivesItTheServersId() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let machines = Machines(root: root)
            let (clock, backend) = (machines.clock, machines.backend)
            let first = try await machines.signedIn(withSyncedHistory: 500)
            // An entry a year back, logged without sending: far older than the latest entries.
            let today = CalendarDate(containing: clock.date(), in: .utc)
            try await first.apply(.measurement(.height, 168.5, day: today.adding(days: -365)))

            // Another process sends it: the acknowledgement gives that older entry the server's id.
            let cold = try #require(try await machines.accounts().current())
            #expect(try await cold.push().isSynced)

            let history = try await machines.accounts().current()?.cached().history ?? []
            let older = try #require(history.first { $0.quantity == 168.5 })
            #expect(older.serverId != nil)
            #expect(history.filter { !$0.isSynced }.isEmpty)
            #expect(await backend.entries.filter { $0.quantity == 168.5 }.count == 1)
        }
    }
}

/// One backend and one cache folder shared by several processes of the same user, each an `Accounts`
/// of its own over the folder (a new store: nothing in memory).
private struct Machines {
    let root: URL
    let clock = ManualClock()
    let backend: InMemoryBackend
    let environment: SyncEnvironment

    init(root: URL) {
        self.root = root
        let clock = self.clock
        backend = InMemoryBackend(profile: TestHarness.serverProfile, now: { clock.date() })
        environment = SyncEnvironment(clock: clock, random: { 0.5 }, timeZone: .utc)
    }

    /// A process started now.
    func accounts() -> Accounts {
        let clock = self.clock
        return Accounts(
            server: TestHarness.server, apiKey: nil,
            directory: JSONFileAccountDirectory(paths: CachePaths(root: root), now: { clock.date() }),
            backend: Backend(auth: backend, profiles: backend, progress: backend), environment: environment)
    }

    /// The backend's user, signed in by a first process, with `count` synced entries in its history.
    func signedIn(withSyncedHistory count: Int) async throws -> Account {
        let account = try await signedIn()
        let seeded = syncedHistory(count)
        try await account.store.update { $0.history.entries = seeded }
        return account
    }

    /// The backend's user, signed in by a first process.
    func signedIn() async throws -> Account {
        try await accounts().signIn(email: backend.email, password: await backend.password).account
    }

    /// `count` synced height entries, one a day, the newest (`p-0`) a day before the clock's now.
    func syncedHistory(_ count: Int) -> [ProgressEntry] {
        let newest = clock.date().addingTimeInterval(-86_400)
        return (0..<count).map { day in
            ProgressEntry(
                serverId: "p-\(day)", quantity: 170 + Double(day % 50) / 10,
                loggedAt: newest.addingTimeInterval(-Double(day) * 86_400), source: .server)
        }
    }
}
