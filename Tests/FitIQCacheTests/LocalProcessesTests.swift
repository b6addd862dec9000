import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCache

#if canImport(Glibc)
    import Glibc
#endif

struct LocalProcessesTests {
    @Test func thisProcessRunsAndAnotherStartTimeIsAnotherProcess() throws {
        let current = try #require(LocalProcesses.current)
        #expect(current.pid == getpid())
        #expect(LocalProcesses.isRunning(current))
        #expect(!LocalProcesses.isRunning(ProcessIdentity(pid: current.pid, startTime: current.startTime + 1)))
    }

    @Test func aKilledProcessNoLongerRuns() async throws {
        try await withTemporaryDirectory { folder in
            let child = try ChildProcess.crashChild([
                "hold-lock", folder.appendingPathComponent("account").path, "60000",
            ])
            try await child.waitForLines { $0.count >= 1 }
            let identity = try #require(LocalProcesses.identity(of: child.pid))
            #expect(LocalProcesses.isRunning(identity))
            child.signal(SIGKILL)
            await child.exit()
            #expect(!LocalProcesses.isRunning(identity))
        }
    }

    @Test func theStartTimeIsFoundAfterACommandNameWithSpacesAndParentheses() {
        // Fields 4 to 52 after the state (field 3); the start time is field 22.
        let fields = (4...52).map { $0 == 22 ? "987654" : "1" }.joined(separator: " ")
        #expect(
            LocalProcesses.parseStat("42 (odd ) name) S \(fields)", pid: 42)
                == ProcessIdentity(pid: 42, startTime: 987_654))
        #expect(LocalProcesses.parseStat("42 (zombie) Z \(fields)", pid: 42) == nil)
        #expect(LocalProcesses.parseStat("42 (cut short) S 1 2", pid: 42) == nil)
    }
}
