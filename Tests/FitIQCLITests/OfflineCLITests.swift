import FitIQCore
import FitIQTestSupport
import Foundation
import Synchronization
import Testing

/// A server that is not there: the address it leaves is held from every other server, a command that
/// saved locally tries once and says so, and a stranger at the address is named.
@Suite(.timeLimit(.minutes(3)))
struct OfflineCLITests {
    /// The cause of a failed `make check`: a stopped server's port, free while its clients waited, was
    /// given to a server of a test running beside it, which refused their tokens and signed them out.
    /// Every test server binds port 0, which never gets a held port, nor does an outgoing connection;
    /// a socket that names the port without `SO_REUSEADDR` cannot bind it either. Only the restart,
    /// binding it by name with that option, gets it.
    @Test func aStoppedServersPortIsGivenToNoOneButItsRestart() async throws {
        let first = try await TestDevServer.start()
        await first.stop()
        #expect(Loopback.refuses(first.port))
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(socket) }
        #expect(!Loopback.bind(socket, toPort: first.port), "a plain socket bound the stopped server's port")
        let second = try await first.restart()
        #expect(second.port == first.port)
        await second.stop()
    }

    /// The cause of the next failed `make check`: a restart let go of the port before binding it, and
    /// a child process being spawned at that moment still had a copy of the holder: the port was
    /// still held, and the restart failed. A server now binds beside holders of its port.
    @Test func aServerBindsBesideHoldersOfItsPort() async throws {
        let first = try await TestDevServer.start()
        let holder = try HeldPort.hold(first.port)
        defer { holder.release() }
        await first.stop()
        #expect(Loopback.refuses(first.port))
        var same = TestDevServer.configuration()
        same.port = first.port
        let second = try await TestDevServer.start(same)
        #expect(!Loopback.refuses(second.port))
        await second.stop()
        #expect(Loopback.refuses(second.port))
    }

    /// A restart hands the port to the new server: a socket trying all the while to bind it (as a bind
    /// to port 0 or an outgoing connection of a test beside may take it) never gets it.
    @Test func aRestartLeavesThePortFreeAtNoMoment() async throws {
        let first = try await TestDevServer.start()
        await first.stop()
        let port = first.port
        let binds = await Repeated.start {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(socket) }
            return Loopback.bind(socket, toPort: port)
        }
        let second = try await first.restart()
        let (attempts, taken) = try await binds.stop()
        #expect(taken == 0, "bound \(taken) of \(attempts) times")
        #expect(attempts > 0)
        #expect(second.port == port)
        await second.stop()
    }

    /// Restarts while child processes are spawned one after another, as the tests beside spawn them:
    /// each child has a copy of every descriptor of this process until it closes them, the holder's
    /// and the server's too, so a restart that closed the holder before binding, or that bound while a
    /// copy of the old server's socket still listened, failed now and then.
    @Test func restartsSucceedWhileChildProcessesAreSpawned() async throws {
        let spawns = await Repeated.start { (try? ChildProcess.run(["/bin/true"], environment: [:]))?.status == 0 }
        var server = try await TestDevServer.start()
        let port = server.port
        for _ in 0..<20 {
            await server.stop()
            server = try await server.restart()
        }
        await server.stop()
        let (_, spawned) = try await spawns.stop()
        #expect(server.port == port)
        #expect(spawned > 0)
    }

    /// The port is held from before the server lets go of it: at no moment is it free.
    @Test func theHolderBindsWhileTheServerStillListens() async throws {
        let server = try await TestDevServer.start()
        let holder = try HeldPort.hold(server.port)
        defer { holder.release() }
        // The server still answers; once it stops, the holder refuses.
        #expect(!Loopback.refuses(server.port))
        await server.stop()
        #expect(Loopback.refuses(server.port))
    }

    /// Edits made while the server is down try it once each, are kept, and are delivered when it starts.
    @Test func aWriteWhileTheServerIsDownTriesOnceAndSaysTheChangeIsKept() async throws {
        try await CLIHarness.with { cli in
            let server = try await cli.registerOnAServerThatGoesAway(
                database: cli.folder.appendingPathComponent("server.sqlite"))
            for command in [
                ["weight", "set", "80.1"], ["height", "set", "172 cm"], ["profile", "set", "--name", "Offline Jane"],
            ] {
                let (result, attempts) = try await cli.tracingConnections(command, to: server.port)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.contains("Saved locally"), "\(result)")
                #expect(result.stdout.contains("connection refused"), "\(result)")
                #expect(attempts == 1, "\(command): \(attempts) connection attempts\n\(result)")
            }
            let status = try await cli.jsonObject(["status", "--json"])
            #expect(status["pendingChanges"] as? Int == 3)
            // `sync --wait` keeps trying until its time is up.
            let (waited, attempts) = try await cli.tracingConnections(
                ["sync", "--wait", "--timeout", "4"], to: server.port)
            #expect(waited.status != 0, "\(waited)")
            #expect(attempts >= 2, "sync --wait tried \(attempts) times\n\(waited)")
            let restarted = try await server.restart()
            defer { Task { await restarted.stop() } }
            let synced = try await cli.run(["sync", "--wait", "--timeout", "30"])
            #expect(synced.status == 0, "\(synced)")
            let profile = try await cli.jsonObject(["profile", "show", "--json"])
            #expect(profile["name"] as? String == "Offline Jane")
            #expect(profile["heightCm"] as? Double == 172)
            for metric in ["height", "weight"] {
                let history = try #require(
                    try CLIHarness.json(try await cli.run([metric, "history", "--json"])) as? [Any])
                #expect(history.count == 1, "\(metric)")
            }
            #expect(try await cli.jsonObject(["status", "--json"])["pendingChanges"] as? Int == 0)
        }
    }

    @Test func aServerThatNeverIssuedTheTokensIsNamedWhenItEndsTheSession() async throws {
        try await CLIHarness.with { cli in
            let server = try await cli.registerOnAServerThatGoesAway()
            let stranger = try await server.restart { $0.jwtSecret = "another-secret-that-is-long-enough-9876543210" }
            defer { Task { await stranger.stop() } }
            let refused = try await cli.run(["weight", "set", "80.1"])
            #expect(refused.status == 3, "\(refused)")
            #expect(
                refused.stderr.contains("The server at \(server.url) refused this account's tokens"), "\(refused)")
            #expect(refused.stderr.contains("fitiq-tui login --server \(server.url)"), "\(refused)")
            let later = try await cli.run(["sync"])
            #expect(later.status == 3, "\(later)")
            #expect(later.stderr.contains("The session with \(server.url) has ended"), "\(later)")
            // Nothing was lost: the reading waits for the next sign-in.
            let status = try await cli.jsonObject(["status", "--json"])
            #expect(status["pendingChanges"] as? Int == 1)
        }
    }
}

/// `body` run over and over on a thread of its own until ``stop()``, which says how many times it ran
/// and how many of them it returned `true`.
private final class Repeated: Sendable {
    private final class Flag: Sendable {
        let raised = Atomic(false)
    }

    private let stopping: Flag
    private let loop: Task<(runs: Int, yes: Int), any Error>

    private init(stopping: Flag, loop: Task<(runs: Int, yes: Int), any Error>) {
        self.stopping = stopping
        self.loop = loop
    }

    /// Starts the loop; returns once `body` has run once.
    static func start(_ body: @escaping @Sendable () -> Bool) async -> Repeated {
        let stopping = Flag()
        let (firstRun, ran) = AsyncStream<Void>.makeStream()
        let loop = Task { () throws -> (runs: Int, yes: Int) in
            try await OwnThread.run {
                var (runs, yes) = (0, 0)
                repeat {
                    runs += 1
                    if body() { yes += 1 }
                    if runs == 1 { ran.finish() }
                } while !stopping.raised.load(ordering: .acquiring)
                return (runs, yes)
            }
        }
        for await _ in firstRun {}
        return Repeated(stopping: stopping, loop: loop)
    }

    func stop() async throws -> (runs: Int, yes: Int) {
        stopping.raised.store(true, ordering: .releasing)
        return try await loop.value
    }
}
