import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `goals.json`, schema version 1, beside `account.json`: the goals set on this machine (the service
/// keeps none). `{"schemaVersion": 1, "goals": [{"type", "target", "by", "setAt", "start"}]}`; `type`
/// is the metric's `/progress` type, and a goal of a type this build does not know is kept as it is.
struct GoalsFile: VersionedFileFormat {
    static let schemaVersion = 1
    var schemaVersion: Int
    var goals: [GoalV1]

    struct GoalV1: Codable, Sendable {
        var type: String
        var target: Double
        var by: CalendarDate?
        var setAt: Date
        var start: Double?
    }

    init(value: Goals) {
        schemaVersion = Self.schemaVersion
        goals = value.all.map { GoalV1(type: $0.type, target: $0.target, by: $0.by, setAt: $0.setAt, start: $0.start) }
    }

    var value: Goals {
        get throws {
            Goals(
                try goals.map { goal in
                    guard goal.target.isFinite, goal.start?.isFinite ?? true else {
                        throw AccountFile.invalid("goals.target", "\(goal.target)")
                    }
                    return Goal(type: goal.type, target: goal.target, by: goal.by, setAt: goal.setAt, start: goal.start)
                })
        }
    }
}

extension JSONFileProfileStore {
    /// `folder/goals.json`.
    var goalsFile: CacheFile<GoalsFile> {
        CacheFile(url: folder.appendingPathComponent(GoalsFile.fileName, isDirectory: false), now: now)
    }

    public func goals() async throws -> Goals {
        try await lock.withLock { try goalsFile.readRecovering() ?? Goals() }
    }

    public func updateGoals<T: Sendable>(_ change: @Sendable (inout Goals) throws -> T) async throws -> T {
        try await lock.withLock {
            let file = goalsFile
            let stored = try file.readRecovering() ?? Goals()
            var goals = stored
            let result = try change(&goals)
            if goals != stored { try file.write(goals) }
            return result
        }
    }
}

extension GoalsFile {
    /// The file's name in the account's data folder.
    static let fileName = "goals.json"
}
