import Hummingbird
import Logging

/// Answers paths the router does not know with Go's plain-text 404, as the production server does,
/// and known paths asked with another method with 405 and an `Allow` header.
struct PlainNotFoundMiddleware: RouterMiddleware {
    typealias Context = DevRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let allowed = DevServer.allowedMethods(forPath: request.uri.path) {
                let allow = allowed.map(\.rawValue).joined(separator: ", ")
                return JSONResponse.text("405 method not allowed", status: .methodNotAllowed, headers: [.allow: allow])
            }
            return JSONResponse.text("404 page not found", status: .notFound)
        }
    }
}

/// Logs one line per request (method, path with its query, status); never headers or bodies, which carry
/// secrets (a query holds dates, a type and a page: what a benchmark needs to fetch the same pages again).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = DevRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            context.logger.info("\(request.method) \(request.uri) \(response.status.code)")
            return response
        } catch let error as any HTTPResponseError {
            context.logger.info("\(request.method) \(request.uri) \(error.status.code)")
            throw error
        }
    }
}

/// Adds latency, injected 503s and dropped connections to API requests (`/health` is exempt).
struct FaultMiddleware: RouterMiddleware {
    typealias Context = DevRequestContext

    let injector: FaultInjector
    let latency: Duration
    let sleep: @Sendable (Duration) async throws -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path != "/health" else { return try await next(request, context) }
        if latency > .zero { try await sleep(latency) }
        switch injector.decide() {
        case .pass:
            return try await next(request, context)
        case .fail:
            context.logger.info("fault: answering 503 for \(request.method) \(request.uri.path)")
            throw APIError.injectedFailure
        case .drop:
            // The work is done first, so the client cannot tell whether its write happened.
            let outcome = await Result { try await next(request, context) }
            context.logger.info("fault: dropping the connection of \(request.method) \(request.uri.path)")
            await context.closeConnection()
            return try outcome.get()
        }
    }
}

/// Rejects API requests whose `X-API-Key` is missing or wrong (`/health` is open).
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = DevRequestContext

    let apiKey: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path != "/health" else { return try await next(request, context) }
        guard let presented = request.headerValue(named: "X-API-Key"), Self.constantTimeEquals(presented, apiKey) else {
            throw APIError.invalidAPIKey
        }
        return try await next(request, context)
    }

    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension Request {
    /// The first value of the header field with this name, in any letter case.
    func headerValue(named name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.canonicalName == wanted }?.value
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
