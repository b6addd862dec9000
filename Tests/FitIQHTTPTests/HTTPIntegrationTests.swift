import FitIQCache
import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

@testable import FitIQCore
@testable import FitIQHTTP

/// The HTTP adapters and the core against the development server on a loopback port, in both shapes.
@Suite(.timeLimit(.minutes(3)))
struct HTTPIntegrationTests {
    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func registerEditAndLogHeight(shape: DevServerConfiguration.ResponseShape) async throws {
        try await LiveServer.with(shape: shape) { server in
            // Given a new account (the server answers 404 until the client creates the profile)
            let account = try await server.register(server.accounts())
            #expect(try await server.serverProfile(account).metadata.name == "Jane Doe")
            // When the user edits metadata and switches to imperial, then enters 5'11"
            try await account.updateMetadata(bio: "Trail runner", unitSystem: .imperial, languageCode: "pt-br")
            #expect(try await account.updateHeight(centimetres: Height.parse("5'11\"", unitSystem: .imperial)))
            let report = try await account.syncNow()
            // Then the server has everything, with one height entry
            #expect(report.isSynced)
            let remote = try await server.serverProfile(account)
            #expect(
                remote.metadata
                    == ProfileMetadata(
                        name: "Jane Doe", bio: "Trail runner", preferredUnitSystem: .imperial, languageCode: "pt-BR"))
            #expect(remote.dateOfBirth?.description == "1983-07-20")
            if shape == .real { #expect(abs((remote.heightCm ?? 0) - 180.34) < 0.01) }
            let heights = try await server.serverHeights(account)
            #expect(heights.count == 1)
            #expect(abs((heights.first?.quantity ?? 0) - 180.34) < 0.01)
        }
    }

    /// A sync still running when the program shuts its transport down opens a new client; dropping the
    /// transport closes it (`HTTPClient` stops a debug build whose client is dropped open).
    @Test func aRequestAfterShutdownLeavesNoClientOpenWhenTheTransportGoes() async throws {
        try await LiveServer.with { server in
            var transport: HTTPTransport? = try LiveServer.client(
                port: try #require(URL(string: server.baseURL)?.port), now: server.now, folder: server.folder
            ).transport
            await transport?.shutdown()
            let answer = try await transport?.send(.GET, "health")
            #expect(answer?.status == 200)
            transport = nil
            // Still usable: the process did not stop at the drop, and a new transport works.
            let again = try await server.transport.send(.GET, "health")
            #expect(again.status == 200)
        }
    }

    /// A command about to send loads libcurl while it reads the cache (`prepare`): the load happens
    /// without a request, requests sent while it runs, or after it, are all answered, and shutting
    /// down waits for it.
    @Test func aPreparedTransportLoadsWithoutARequestAndAnswersThoseSentMeanwhile() async throws {
        try await LiveServer.with { server in
            let port = try #require(URL(string: server.baseURL)?.port)
            func transport() throws -> HTTPTransport {
                try LiveServer.client(port: port, now: server.now, folder: server.folder).transport
            }
            func health(_ transport: HTTPTransport) async throws -> [Int] {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<4 { group.addTask { try await transport.send(.GET, "health").status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let loaded = try transport()
            #expect(!loaded.isOpen)
            await loaded.prepare().value
            #expect(loaded.isOpen)
            loaded.prepare()
            #expect(try await health(loaded) == [200, 200, 200, 200])
            // Requests sent while the load runs wait for it.
            let loading = try transport()
            let load = loading.prepare()
            #expect(try await health(loading) == [200, 200, 200, 200])
            await load.value
            #expect(loading.isOpen)
            // Shutting down waits for a load under way: a process must not exit during one.
            let leaving = try transport()
            leaving.prepare()
            await leaving.shutdown()
            #expect(leaving.isOpen)
        }
    }

    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func historyPagesPastAHundredEntries(shape: DevServerConfiguration.ResponseShape) async throws {
        try await LiveServer.with(shape: shape) { server in
            let email = "pager.\(UUID().uuidString.prefix(6))@example.com"
            let account = try await server.register(server.accounts(), email: email)
            let today = CalendarDate(containing: server.now.date(), in: .utc)
            for day in 1...130 {
                try await account.apply(
                    .measurement(.height, 170 + Double(day % 7) / 10, day: today.adding(days: -day)))
            }
            #expect(try await account.syncNow().isSynced)
            // A second machine signs in and reads the whole history.
            let other = try await server.accounts(folder: "second").signIn(
                email: email, password: "correct horse battery")
            let history = try await other.account.history(of: .height, refresh: false)
            #expect(history.count == 130)
            #expect(history.allSatisfy { $0.isSynced })
        }
    }

    @Test(arguments: [false, true])
    func bothRegistrationBehaviours(registerCreatesProfile: Bool) async throws {
        try await LiveServer.with(registerCreatesProfile: registerCreatesProfile) { server in
            let account = try await server.register(server.accounts())
            #expect(try await account.cached().profile?.name == "Jane Doe")
            #expect(try await server.serverProfile(account).metadata.name == "Jane Doe")
            // Creating it again answers 409, which the adapter reports as a conflict.
            let remote = HTTPProfileRemote(transport: server.transport)
            await #expect(throws: RemoteError.self) {
                _ = try await account.session.authorized { token throws(RemoteError) in
                    try await remote.createProfile(ProfileMetadata(name: "Again"), accessToken: token)
                }
            }
        }
    }

    @Test func aServerHeightWithoutHistoryGetsOneInitialEntry() async throws {
        try await LiveServer.with { server in
            let email = "initial.\(UUID().uuidString.prefix(6))@example.com"
            let account = try await server.register(server.accounts(), email: email)
            // Another client set the height without a progress entry.
            let remote = HTTPProfileRemote(transport: server.transport)
            _ = try await account.session.authorized { token throws(RemoteError) in
                try await remote.updatePhysical(PhysicalPatch(heightCm: 172), accessToken: token)
            }
            for folder in ["second", "third"] {
                let signedIn = try await server.accounts(folder: folder).signIn(
                    email: email, password: "correct horse battery")
                try await signedIn.account.syncNow()
            }
            let heights = try await server.serverHeights(account)
            #expect(heights.count == 1)
            #expect(heights.first?.notes == ProgressEntry.initialHeightNote)
            #expect(heights.first?.quantity == 172)
        }
    }

    @Test func workContinuesAcrossTokenExpiry() async throws {
        try await LiveServer.with(accessTokenTTL: 2) { server in
            let account = try await server.register(server.accounts())
            for round in 1...4 {
                server.now.advance(by: .seconds(3))
                try await account.updateMetadata(name: "Round \(round)")
                #expect(try await account.syncNow().isSynced)
            }
            #expect(try await server.serverProfile(account).metadata.name == "Round 4")
        }
    }

    @Test func twoProcessesRefreshingAtOnceDoNotSignEachOtherOut() async throws {
        try await LiveServer.with(accessTokenTTL: 2) { server in
            let account = try await server.register(server.accounts())
            // A second directory on the same files has its own lock handles, as another process would.
            let twin = try server.accounts().account(for: account.key, email: account.email)
            server.now.advance(by: .seconds(5))
            async let first = account.session.validAccessToken()
            async let second = twin.session.validAccessToken()
            let (one, two) = try await (first, second)
            #expect(one == two)
            #expect(try await server.serverProfile(account).metadata.name == "Jane Doe")
            #expect(try await server.serverProfile(twin).metadata.name == "Jane Doe")
            #expect(try await account.status().signedIn)
        }
    }

    @Test func aRevokedRefreshTokenSignsOutWithTheOutboxIntact() async throws {
        try await LiveServer.with(accessTokenTTL: 2) { server in
            let accounts = server.accounts()
            let account = try await server.register(accounts)
            // Someone else spends the stored refresh token.
            let stored = try #require(try await account.sessions.load()?.tokens)
            _ = try await HTTPAuthRemote(transport: server.transport).refresh(refreshToken: stored.refreshToken)
            try await account.updateMetadata(bio: "kept while signed out")
            server.now.advance(by: .seconds(5))
            await #expect(
                throws: SessionError.signedOut(server: account.key.server, reason: "refresh token has been revoked")
            ) {
                try await account.syncNow()
            }
            #expect(try await account.status().signedIn == false)
            #expect(try await account.cached().outbox.metadata != nil)
            // Signing in again delivers it.
            let again = try await accounts.signIn(email: account.email, password: "correct horse battery")
            #expect(try await again.account.syncNow().isSynced)
            #expect(try await server.serverProfile(again.account).metadata.bio == "kept while signed out")
        }
    }

    @Test(arguments: [(0.3, 0.0), (0.0, 0.1), (0.3, 0.1)])
    func flakyServersEndEqualToTheLastLocalState(failRate: Double, dropRate: Double) async throws {
        try await LiveServer.with(failRate: failRate, dropRate: dropRate) { server in
            let accounts = server.accounts()
            let email = "flaky.\(UUID().uuidString.prefix(6))@example.com"
            let account = try await retrying(server) {
                do {
                    return try await server.register(accounts, email: email)
                } catch RemoteError.conflict {
                    // The registration went through but its answer was dropped.
                    let signedIn = try await accounts.signIn(email: email, password: "correct horse battery")
                    if let error = signedIn.profileError { throw error }
                    return signedIn.account
                }
            }
            var heights: [Double] = []
            for edit in 1...50 {
                if edit % 3 == 0 {
                    let height = 150 + Double(edit)
                    heights.append(height)
                    try await account.apply(.measurement(.height, height))
                } else {
                    try await account.updateMetadata(name: "Edit \(edit)")
                }
                _ = try await account.engine.drain()
            }
            let deadline = server.now.date().addingTimeInterval(3600)
            while try await !account.engine.drain(until: deadline).isSynced {}
            let remote = try await retrying(server) { try await server.serverProfile(account) }
            let local = try #require(try await account.cached().profile)
            #expect(remote.metadata == local.metadata)
            #expect(abs((remote.heightCm ?? 0) - (local.heightCm ?? 0)) < 0.01)
            let onServer = try await retrying(server) { try await server.serverHeights(account) }.map(\.quantity)
            #expect(onServer.sorted() == heights.sorted())
        }
    }
}

/// Repeats `operation` while the server answers with retryable failures (the fault switches).
func retrying<T: Sendable>(_ server: LiveServer, _ operation: () async throws -> T) async throws -> T {
    for _ in 0..<200 {
        do {
            return try await operation()
        } catch let error as RemoteError where error.isRetryable {
            server.now.advance(by: .seconds(1))
        }
    }
    return try await operation()
}
