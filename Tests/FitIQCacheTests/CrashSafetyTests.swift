import FitIQCache
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2)))
struct CrashSafetyTests {
    /// The counter a crash child's save holds (`value-N`).
    private func counter(in state: AccountState) -> Int? {
        state.profile.flatMap { Int($0.name.dropFirst("value-".count)) }
    }

    @Test func saveSurvivesSigkillAtRandomMoments() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let account = folder.appendingPathComponent("account")
            let reader = JSONFileProfileStore(
                folder: account, lock: AccountLock(file: account.appendingPathComponent("lock")))
            var lastAcknowledged: Int?
            var start = 0
            for round in 0..<60 {
                // Given a child saving value-N in a loop from `start`
                let child = try ChildProcess.crashChild(["save-loop", account.path, "\(start)"])
                try await child.waitForLines { $0.count >= 1 }
                // When it is killed at a random moment (the random pause picks the moment: it makes the
                // kill land anywhere in a save, and nothing waits for it to make something happen)
                try await Task.sleep(for: .microseconds(Int.random(in: 0...30_000)))
                child.signal(SIGKILL)
                #expect(await child.exit() == 128 + SIGKILL)
                let acknowledged = child.lines.compactMap { Int($0) }
                #expect(acknowledged.first == start)
                lastAcknowledged = acknowledged.last ?? lastAcknowledged
                // Then the file decodes to the last acknowledged value or the one being saved
                let state = try await reader.load()
                let value = try #require(counter(in: state))
                let expected = try #require(lastAcknowledged)
                #expect(
                    value == expected || value == expected + 1,
                    "round \(round): file holds \(value), last ack \(expected)")
                #expect(state.history.count == value % 17)
                // And at most the killed writer's temporary file is left over
                let leftovers = fileNames(in: account).filter { $0.contains(".tmp-") }
                #expect(leftovers.count <= 1, "round \(round): \(leftovers)")
                #expect(!fileNames(in: account).contains { $0.contains(".corrupt-") })
                start = value + 1
            }
            // A later write clears the leftovers of dead writers.
            try await reader.update { $0.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 1) }
            #expect(fileNames(in: account).filter { $0.contains(".tmp-") }.isEmpty)
        }
    }
}
