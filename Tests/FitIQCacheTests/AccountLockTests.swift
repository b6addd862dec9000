import FitIQCache
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5)))
struct AccountLockTests {
    @Test func waiterTimesOutNamingTheHolderPidAndSucceedsAfterRelease() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let account = folder.appendingPathComponent("account")
            // Given another process holding the account lock (long enough even on a loaded machine)
            let holder = try ChildProcess.crashChild(["hold-lock", account.path, "60000"])
            try await holder.waitForLines { $0.count >= 1 }
            let lockFile = account.appendingPathComponent("lock")
            // When this process waits only briefly, then it is told who holds the lock
            let impatient = AccountLock(file: lockFile, timeout: .milliseconds(200))
            do {
                try await impatient.withLock {}
                Issue.record("the lock should have been held")
            } catch let error as CacheError {
                #expect(error == .locked(pid: holder.pid, path: lockFile.path))
                #expect(error.description.contains("in use by another fitiq-tui process (pid \(holder.pid))"))
            }
            // When it waits long enough, then it gets the lock once the holder lets go: here, once it is
            // told to end. (It asks while the holder has the lock, which holds it until told; trying
            // again and again while it waits is what the impatient waiter above went through.)
            let patient = AccountLock(file: lockFile, timeout: .seconds(30))
            async let held = patient.withLock { true }
            holder.signal(SIGTERM)
            #expect(try await held)
            #expect(await holder.exit() == 128 + SIGTERM)
        }
    }

    @Test func lockHeldByAKilledProcessIsFree() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let account = folder.appendingPathComponent("account")
            let holder = try ChildProcess.crashChild(["hold-lock", account.path, "60000"])
            try await holder.waitForLines { $0.count >= 1 }
            holder.signal(SIGKILL)
            await holder.exit()
            let lock = AccountLock(file: account.appendingPathComponent("lock"), timeout: .seconds(2))
            #expect(try await lock.withLock { true })
        }
    }

    @Test func twoProcessesIncrementingLoseNoUpdate() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let account = folder.appendingPathComponent("account")
            // Given two processes each doing 50 read-modify-write increments at the same time
            let children = try (0..<2).map { index in
                try ChildProcess.crashChild(["increment", account.path, "50"])
            }
            for child in children {
                let status = await child.exit()
                #expect(status == 0, "exit \(status): \(child.lines.suffix(20).joined(separator: "\n"))")
            }
            // Then the counter is 100
            let store = JSONFileProfileStore(
                folder: account, lock: AccountLock(file: account.appendingPathComponent("lock")))
            #expect(try await store.load().profile?.name == "100")
        }
    }

    @Test func tasksOfOneProcessTakeTurns() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let lock = AccountLock(file: folder.appendingPathComponent("lock"))
            let inside = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await lock.withLock {
                            let now = await inside.enter()
                            #expect(now == 1)
                            // Hand the thread to the other tasks while inside: any that got in too
                            // would be counted. (Few times: the holders take turns, so each yield waits
                            // for everything else queued in the process, which on a loaded machine
                            // running the whole suite is a lot.)
                            for _ in 0..<3 { await Task.yield() }
                            await inside.leave()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await inside.maximum == 1)
        }
    }

    @Test func lockFileIsEmptyOnceReleased() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let lock = AccountLock(file: folder.appendingPathComponent("lock"))
            let during = try await lock.withLock { try String(contentsOf: lock.file, encoding: .utf8) }
            #expect(during == "\(getpid())\n")
            #expect(try String(contentsOf: lock.file, encoding: .utf8) == "")
        }
    }
}

/// Counts tasks inside a critical section.
private actor Counter {
    private(set) var current = 0
    private(set) var maximum = 0

    func enter() -> Int {
        current += 1
        maximum = max(maximum, current)
        return current
    }

    func leave() { current -= 1 }
}
