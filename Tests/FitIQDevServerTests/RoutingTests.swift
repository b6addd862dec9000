import Hummingbird
import Testing

@testable import FitIQDevServer

struct RoutingTests {
    @Test func healthIsOpenWithoutHeaders() async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.get, "/health", apiKey: nil)
            #expect(reply.status == .ok)
            #expect(reply.text == #"{"status":"ok"}"#)
        }
    }

    @Test func unknownPathIsPlainTextNotFound() async throws {
        try await TestSupport.withServer { api in
            for path in ["/api/v1/nope", "/me", "/api/v1/users/42"] {
                let reply = try await api.send(.get, path, apiKey: nil)
                #expect(reply.status == .notFound)
                #expect(reply.text == "404 page not found")
                #expect(reply.headers[.contentType]?.hasPrefix("text/plain") == true)
            }
        }
    }

    @Test func getPhysicalIsMethodNotAllowed() async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.get, "/api/v1/users/me/physical")
            #expect(reply.status == .methodNotAllowed)
            #expect(reply.headers[.allow] == "PATCH")
        }
    }

    @Test(arguments: [nil, "wrong-key"])
    func apiKeyIsRequiredOnEveryAPICall(key: String?) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let calls: [(HTTPRequest.Method, String)] = [
                (.post, "/api/v1/auth/login"), (.post, "/api/v1/auth/register"), (.post, "/api/v1/auth/refresh"),
                (.get, "/api/v1/users/me"), (.get, "/api/v1/progress"),
            ]
            for (method, path) in calls {
                let reply = try await api.send(method, path, token: account.accessToken, body: "{}", apiKey: key)
                #expect(reply.status == .unauthorized, "\(method) \(path)")
                #expect(reply.errorMessage == "Invalid or missing API key")
            }
        }
    }

    @Test func bearerIsRequiredOnProfileAndProgress() async throws {
        try await TestSupport.withServer { api in
            let calls: [(HTTPRequest.Method, String)] = [
                (.get, "/api/v1/users/me"), (.post, "/api/v1/users/me"), (.put, "/api/v1/users/me"),
                (.delete, "/api/v1/users/me"), (.patch, "/api/v1/users/me/physical"), (.get, "/api/v1/progress"),
                (.post, "/api/v1/progress"), (.delete, "/api/v1/progress/6f1c1a52-4a43-4a35-8a3f-1b2d3c4e5f60"),
            ]
            for (method, path) in calls {
                let missing = try await api.send(method, path, body: "{}")
                #expect(missing.status == .unauthorized, "\(method) \(path)")
                let garbage = try await api.send(method, path, token: "not.a.jwt", body: "{}")
                #expect(garbage.status == .unauthorized, "\(method) \(path)")
                #expect(garbage.errorMessage == "Invalid authentication")
            }
        }
    }

    @Test func tokenSignedWithAnotherSecretIsRejected() async throws {
        var other = TestSupport.configuration()
        other.jwtSecret = "another-secret-that-is-also-long-enough-for-hs256"
        let foreign = try await TestSupport.withServer(other) { api in try await api.register().accessToken }
        try await TestSupport.withServer { api in
            let reply = try await api.send(.get, "/api/v1/users/me", token: foreign)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorMessage == "Invalid authentication")
        }
    }

    @Test func errorsUseTheProductionEnvelope() async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.post, "/api/v1/auth/register", body: "{}")
            #expect(reply.status == .badRequest)
            let error = reply.json?["error"] as? [String: Any]
            #expect(error?.keys.sorted() == ["message"])
            #expect(reply.json?.keys.sorted() == ["error"])
        }
    }

    @Test func listeningPortIsReportedWhenBoundToPortZero() async throws {
        // The port comes from the server's `onListening` report, once it accepts connections.
        let port = try await TestSupport.withServer { api in
            let reply = try await api.send(.get, "/health", apiKey: nil)
            #expect(reply.status == .ok)
            return api.port
        }
        #expect(port != 0)
    }
}

struct MethodNotAllowedTests {
    @Test(arguments: [
        ("QUERY", "/health", "GET"), ("PUT", "/api/v1/auth/login", "POST"),
        ("PATCH", "/api/v1/users/me", "GET, POST, PUT, DELETE"), ("GET", "/api/v1/progress/abc", "DELETE"),
        ("TRACE", "/api/v1/progress", "GET, POST"),
    ])
    func knownPathsAnswer405WithAllow(method: String, path: String, allow: String) async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(try #require(HTTPRequest.Method(method)), path)
            #expect(reply.status == .methodNotAllowed)
            #expect(reply.headers[.allow] == allow)
        }
    }
}
