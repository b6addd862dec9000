import Foundation
import Logging
import ServiceLifecycle

/// A development server running in this process, for tests and tools: started on a loopback port,
/// stopped with ``stop()``.
public final class RunningDevServer: Sendable {
    /// The server's base URL, `http://127.0.0.1:PORT`.
    public let url: String
    /// The port it bound (useful with port 0).
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(url: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.url = url
        self.port = port
        self.group = group
        self.task = task
    }

    /// Builds the application for `configuration`, runs it, and returns once it accepts connections.
    /// With an `executor`, the server's tasks (each connection's and each request's) prefer it to the
    /// shared task pool: a test process gives it threads its own tests cannot keep busy.
    public static func start(
        _ configuration: DevServerConfiguration, dependencies: DevServerDependencies = .live,
        logger: Logger = Logger(label: "fitiq-dev-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        executor: (any TaskExecutor)? = nil
    ) async throws -> RunningDevServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await DevServer.makeApplication(
            configuration: configuration, dependencies: dependencies, logger: logger,
            onListening: { continuation.yield($0) })
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task(executorPreference: executor) {
            // A server that ends before it listens (its port is taken) ends the wait for its port.
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            try await task.value
            throw CancellationError()
        }
        return RunningDevServer(url: "http://127.0.0.1:\(bound)", port: bound, group: group, task: task)
    }

    /// Stops the server and waits until it has let go of the port. A graceful shutdown: no new
    /// connection is taken, and requests in flight are answered before their connections close
    /// (cancelling the server instead tears down response writers mid-answer).
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
