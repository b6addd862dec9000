import FitIQCore
import Foundation
import Testing

@testable import FitIQCache

/// `goals.json` beside `account.json`: goals kept on this machine, read and written as real files.
struct GoalsFileTests {
    private func makeStore(in folder: URL) -> JSONFileProfileStore {
        JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")))
    }

    private static var fixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/goals-v1.json")
    }

    @Test func goalsAreKeptAcrossRestartsInTheirOwnFile() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            #expect(try await makeStore(in: folder).goals() == Goals())
            let goal = Goal(
                metric: .weight, target: 74.5, by: CalendarDate(parsing: "2027-06-01"),
                setAt: Date(timeIntervalSinceReferenceDate: 816_000_000.25), start: 83.1)
            try await makeStore(in: folder).updateGoals { $0.set(goal) }
            // Another store, as after a restart, reads the file.
            #expect(try await makeStore(in: folder).goals().known == [goal])
            let file = folder.appendingPathComponent("account/goals.json")
            #expect(try permissions(of: file) == 0o600)
            // Saving goals writes no account.json.
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("account/account.json").path))
        }
    }

    /// The file's keys are pinned by the fixture; a goal of a metric this build does not know is kept.
    @Test func theFixtureReadsAndAnUnknownMetricsGoalIsKeptButIgnored() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
            let file = store.folder.appendingPathComponent("goals.json")
            try FileManager.default.copyItem(at: Self.fixture, to: file)
            let goals = try await store.goals()
            #expect(goals.all.count == 2)
            #expect(goals.known.map(\.target) == [75])
            #expect(goals.known.first?.by?.description == "2027-06-01" && goals.known.first?.start == 84.2)
            try await store.updateGoals {
                $0.set(Goal(metric: .bodyFat, target: 20, by: nil, setAt: Date(), start: nil))
            }
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("\"waist_circumference\""), "\(text)")
            #expect(try await store.goals().known.map(\.type) == ["weight", "body_fat_percentage"])
        }
    }

    @Test func anUnreadableGoalsFileIsMovedAsideAndNamedAndTheAccountIsUntouched() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            let file = store.folder.appendingPathComponent("goals.json")
            for bad in [
                #"{"schemaVersion": 1, "goals": [{"type": "weight"}]}"#, "{not json",
                #"{"schemaVersion": 1, "goals": [{"type": "weight", "target": 1e999, "setAt": 0}]}"#,
            ] {
                try Data(bad.utf8).write(to: file)
                await #expect(throws: CacheError.self) { try await store.goals() }
                let asides = try FileManager.default.contentsOfDirectory(atPath: store.folder.path)
                    .filter { $0.hasPrefix("goals.json.corrupt-") }
                #expect(!asides.isEmpty)
                for aside in asides {
                    try FileManager.default.removeItem(at: store.folder.appendingPathComponent(aside))
                }
                // Nothing there now: no goals, and the account reads as before.
                #expect(try await store.goals() == Goals())
                #expect(try await store.load().profile?.metadata.name == "Ada")
            }
        }
    }

    @Test func erasingTheAccountRemovesItsGoals() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await store.updateGoals {
                $0.set(Goal(metric: .weight, target: 70, by: nil, setAt: Date(), start: nil))
            }
            try await store.erase()
            #expect(!FileManager.default.fileExists(atPath: store.folder.appendingPathComponent("goals.json").path))
            #expect(try await store.goals() == Goals())
        }
    }
}
