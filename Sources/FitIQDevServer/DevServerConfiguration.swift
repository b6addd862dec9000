import Foundation

/// The settings of one development server run: address, storage, secrets, shapes and fault switches.
public struct DevServerConfiguration: Sendable {
    /// Where the server keeps its data.
    public enum Storage: Sendable, Equatable {
        /// A fresh database that lives as long as the process.
        case inMemory
        /// An SQLite file that keeps its data across restarts.
        case file(path: String)
    }

    /// Which response bodies the server writes.
    public enum ResponseShape: String, Sendable, CaseIterable {
        /// What the production server was recorded sending (CONTRACT.md §7).
        case real
        /// What the written OpenAPI document describes.
        case spec
    }

    /// The demo account created at start-up for `fitiq-tui demo`.
    public struct DemoAccount: Sendable {
        /// The account's email address.
        public var email: String
        /// The account's password (never logged).
        public var password: String

        /// Creates a demo account description.
        public init(email: String = "demo@fitiq.dev", password: String) {
            self.email = email
            self.password = password
        }
    }

    /// HS256 keys shorter than the hash output (32 bytes) are weak; jwt-kit refuses them.
    public static let minimumJWTSecretBytes = 32

    /// Host name or address to bind.
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Where the data lives.
    public var storage: Storage
    /// The value every API call must carry in `X-API-Key`.
    public var apiKey: String
    /// The HS256 secret that signs access tokens.
    public var jwtSecret: String
    /// Lifetime of an access token in seconds.
    public var accessTokenTTL: Int
    /// Lifetime of a refresh token in seconds.
    public var refreshTokenTTL: Int
    /// Which response bodies to write.
    public var responseShape: ResponseShape
    /// Whether registration also creates the profile.
    public var registerCreatesProfile: Bool
    /// Delay added to every API request, in milliseconds.
    public var latencyMilliseconds: Int
    /// Share of API requests answered 503 without doing anything (0...1).
    public var failRate: Double
    /// Share of API requests whose connection is closed after the work was done (0...1).
    public var dropRate: Double
    /// Seed of the generator that decides which requests fail or drop.
    public var faultSeed: UInt64
    /// bcrypt cost factor for stored passwords (4...31; tests use 4).
    public var bcryptCost: UInt8
    /// The demo account to create at start-up, if any.
    public var demoAccount: DemoAccount?
    /// A history to add to an existing account at start-up, if any (the benchmarks').
    public var seedHistory: SeedHistory?

    /// `heights` height and `weights` weight entries for the account of `email` (``HistorySeeder``).
    public struct SeedHistory: Sendable {
        public var email: String
        public var heights: Int
        public var weights: Int
        public var shape: Shape
        /// Days of one entry a day of every other type (body fat, steps, water, sleep… up to now).
        public var everyMetricDays = 0

        /// How the entries lie in time.
        public enum Shape: String, Sendable, CaseIterable {
            /// Both spread evenly over the past ten years, at most a day apart, the newest hours ago.
            case even
            /// As a real account that came from another app: heights 12 hours apart ending three years
            /// ago, and weights once a day up to an hour ago.
            case production
        }

        public init(email: String, heights: Int, weights: Int, shape: Shape = .even) {
            self.email = email
            self.heights = heights
            self.weights = weights
            self.shape = shape
        }
    }

    /// Creates a configuration; every value but the secrets has a development default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        storage: Storage = .inMemory,
        apiKey: String,
        jwtSecret: String,
        accessTokenTTL: Int = 3600,
        refreshTokenTTL: Int = 30 * 24 * 3600,
        responseShape: ResponseShape = .real,
        registerCreatesProfile: Bool = false,
        latencyMilliseconds: Int = 0,
        failRate: Double = 0,
        dropRate: Double = 0,
        faultSeed: UInt64 = 0,
        bcryptCost: UInt8 = 8,
        demoAccount: DemoAccount? = nil
    ) {
        self.host = host
        self.port = port
        self.storage = storage
        self.apiKey = apiKey
        self.jwtSecret = jwtSecret
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.responseShape = responseShape
        self.registerCreatesProfile = registerCreatesProfile
        self.latencyMilliseconds = latencyMilliseconds
        self.failRate = failRate
        self.dropRate = dropRate
        self.faultSeed = faultSeed
        self.bcryptCost = bcryptCost
        self.demoAccount = demoAccount
    }

    /// Checks the values that a caller could get wrong.
    public func validate() throws(DevServerSetupError) {
        guard !apiKey.isEmpty else { throw .missingAPIKey }
        guard !jwtSecret.isEmpty else { throw .emptyJWTSecret }
        guard jwtSecret.utf8.count >= Self.minimumJWTSecretBytes else { throw .shortJWTSecret }
        guard (0...65535).contains(port) else { throw .invalidValue(option: "port", reason: "must be 0...65535") }
        guard accessTokenTTL > 0 else { throw .invalidValue(option: "access-token-ttl", reason: "must be positive") }
        guard refreshTokenTTL > 0 else { throw .invalidValue(option: "refresh-token-ttl", reason: "must be positive") }
        guard latencyMilliseconds >= 0 else { throw .invalidValue(option: "latency-ms", reason: "must be 0 or more") }
        guard (0...1).contains(failRate) else { throw .invalidValue(option: "fail-rate", reason: "must be 0...1") }
        guard (0...1).contains(dropRate) else { throw .invalidValue(option: "drop-rate", reason: "must be 0...1") }
        guard (4...31).contains(bcryptCost) else {
            throw .invalidValue(option: "bcrypt-cost", reason: "must be 4...31")
        }
        if let demoAccount, demoAccount.password.isEmpty { throw .missingDemoPassword }
    }
}
