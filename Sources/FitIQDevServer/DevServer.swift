import Foundation
import Hummingbird
import Logging
import NIOCore

/// Builds the development server: storage, tokens, routes and fault switches, ready to run or test.
public enum DevServer {
    /// The routes and the methods each offers (any other method on these paths is 405).
    static let routes: [(path: String, methods: [HTTPRequest.Method])] = [
        ("/health", [.get]),
        ("/api/v1/auth/register", [.post]),
        ("/api/v1/auth/login", [.post]),
        ("/api/v1/auth/refresh", [.post]),
        ("/api/v1/users/me", [.get, .post, .put, .delete]),
        ("/api/v1/users/me/physical", [.patch]),
        ("/api/v1/progress", [.get, .post]),
        ("/api/v1/progress/:id", [.delete]),
    ]

    /// Opens storage, seeds the demo account when asked, and returns the application.
    ///
    /// `onListening` receives the bound port (useful with port 0) once the server accepts connections.
    public static func makeApplication(
        configuration: DevServerConfiguration,
        dependencies: DevServerDependencies = .live,
        logger: Logger = Logger(label: "fitiq-dev-server"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        try configuration.validate()
        let store = DevStore(queue: try DevDatabase.open(configuration.storage))
        let issuer = await TokenIssuer.make(
            secret: configuration.jwtSecret, accessTokenTTL: configuration.accessTokenTTL)
        let services = DevServerServices(
            store: store, issuer: issuer, configuration: configuration, now: dependencies.now)
        if let demo = configuration.demoAccount {
            try await DemoSeeder(services: services).seed(demo)
        }
        if let history = configuration.seedHistory {
            try await HistorySeeder(services: services).seed(history)
        }
        let router = makeRouter(services: services, dependencies: dependencies)
        let port = configuration.port
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: port), serverName: nil),
            onServerRunning: { channel in
                // A supervisor of the same user (a test restarting the server) can bind the port before the
                // server lets go of it, and keep it until the next server starts: no one else gets it between.
                try? await channel.setOption(ChannelOptions.socketOption(.init(rawValue: SO_REUSEPORT)), value: 1)
                await onListening(channel.localAddress?.port ?? port)
            },
            logger: logger
        )
    }

    /// The methods a known path offers, or nil when the router does not know the path.
    static func allowedMethods(forPath path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for route in routes {
            let pattern = route.path.split(separator: "/")
            guard pattern.count == segments.count else { continue }
            if zip(pattern, segments).allSatisfy({ $0.hasPrefix(":") || $0 == $1 }) { return route.methods }
        }
        return nil
    }

    static func makeRouter(
        services: DevServerServices, dependencies: DevServerDependencies
    ) -> Router<DevRequestContext> {
        let configuration = services.configuration
        let router = Router(context: DevRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: PlainNotFoundMiddleware())
        router.get("/health") { _, _ in JSONResponse.make(status: .ok, body: .object(["status": .string("ok")])) }

        let api = router.group("/api/v1")
            .add(
                middleware: FaultMiddleware(
                    injector: FaultInjector(
                        failRate: configuration.failRate, dropRate: configuration.dropRate,
                        seed: configuration.faultSeed),
                    latency: .milliseconds(configuration.latencyMilliseconds),
                    sleep: dependencies.sleep
                )
            )
            .add(middleware: APIKeyMiddleware(apiKey: configuration.apiKey))
        AuthController(services: services).register(on: api)
        let signedIn = api.group()
            .add(middleware: BearerAuthMiddleware(issuer: services.issuer, store: services.store, now: services.now))
        ProfileController(services: services).register(on: signedIn)
        ProgressController(services: services).register(on: signedIn)

        return router
    }
}
