import Foundation
import Logging

/// A development server running in this process, for tests and tools: started on a loopback port,
/// stopped with ``stop()``.
public final class RunningDevServer: Sendable {
    /// The server's base URL, `http://127.0.0.1:PORT`.
    public let url: String
    /// The port it bound (useful with port 0).
    public let port: Int
    private let task: Task<Void, any Error>

    private init(url: String, port: Int, task: Task<Void, any Error>) {
        self.url = url
        self.port = port
        self.task = task
    }

    /// Builds the application for `configuration`, runs it, and returns once it accepts connections.
    public static func start(
        _ configuration: DevServerConfiguration, dependencies: DevServerDependencies = .live,
        logger: Logger = Logger(label: "fitiq-dev-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> RunningDevServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await DevServer.makeApplication(
            configuration: configuration, dependencies: dependencies, logger: logger,
            onListening: { continuation.yield($0) })
        let task = Task { try await application.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw CancellationError() }
        return RunningDevServer(url: "http://127.0.0.1:\(bound)", port: bound, task: task)
    }

    /// Stops the server and waits until it has let go of the port.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}
