/// Why the development server refuses to start.
public enum DevServerSetupError: Error, Equatable, CustomStringConvertible {
    /// No API key was given.
    case missingAPIKey
    /// The JWT secret is empty.
    case emptyJWTSecret
    /// The JWT secret is shorter than 32 bytes.
    case shortJWTSecret
    /// `--demo-account` was given without a password in the environment.
    case missingDemoPassword
    /// An option has a value outside its range.
    case invalidValue(option: String, reason: String)
    /// The database could not be opened or migrated.
    case database(reason: String)
    /// `--seed-email` names no account of the database.
    case seedAccountMissing(String)

    /// The sentence shown to the person starting the server.
    public var description: String {
        switch self {
        case .missingAPIKey:
            "No API key: set FITIQ_DEV_API_KEY (preferred, argv is visible to other users) or pass --api-key."
        case .emptyJWTSecret:
            "The JWT secret is empty: set FITIQ_DEV_JWT_SECRET or --jwt-secret to a non-empty value, or leave both unset."
        case .shortJWTSecret:
            "The JWT secret must be at least 32 bytes long (FITIQ_DEV_JWT_SECRET or --jwt-secret)."
        case .missingDemoPassword:
            "--demo-account needs the demo password in FITIQ_DEV_DEMO_PASSWORD."
        case .invalidValue(let option, let reason):
            "--\(option) \(reason)."
        case .database(let reason):
            "Cannot open the database: \(reason)"
        case .seedAccountMissing(let email):
            "--seed-email: no account \(email) in the database (register it first, with --database)."
        }
    }
}
