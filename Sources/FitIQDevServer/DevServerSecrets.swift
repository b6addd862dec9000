/// The secrets a run needs, taken from flags or the environment (flags win; the environment is preferred
/// because other users can read a process's arguments).
public struct DevServerSecrets: Sendable, Equatable {
    /// Environment variable holding the API key.
    public static let apiKeyVariable = "FITIQ_DEV_API_KEY"
    /// Environment variable holding the JWT secret.
    public static let jwtSecretVariable = "FITIQ_DEV_JWT_SECRET"
    /// Environment variable holding the demo account's password.
    public static let demoPasswordVariable = "FITIQ_DEV_DEMO_PASSWORD"

    /// The API key clients must send.
    public let apiKey: String
    /// The JWT signing secret (random when none was given, so tokens die with the process).
    public let jwtSecret: String
    /// The demo password, when a demo account was asked for.
    public let demoPassword: String?

    /// Resolves the secrets, refusing to start without an API key or, with `demoAccount`, a demo password.
    public static func resolve(
        apiKeyFlag: String?,
        jwtSecretFlag: String?,
        demoAccount: Bool,
        environment: [String: String]
    ) throws(DevServerSetupError) -> DevServerSecrets {
        guard let apiKey = nonEmpty(apiKeyFlag) ?? nonEmpty(environment[apiKeyVariable]) else {
            throw .missingAPIKey
        }
        let jwtSecret = nonEmpty(jwtSecretFlag) ?? nonEmpty(environment[jwtSecretVariable])
        if jwtSecretFlag != nil, nonEmpty(jwtSecretFlag) == nil { throw .emptyJWTSecret }
        if let jwtSecret, jwtSecret.utf8.count < DevServerConfiguration.minimumJWTSecretBytes {
            throw .shortJWTSecret
        }
        var demoPassword: String?
        if demoAccount {
            guard let password = nonEmpty(environment[demoPasswordVariable]) else { throw .missingDemoPassword }
            demoPassword = password
        }
        return DevServerSecrets(
            apiKey: apiKey, jwtSecret: jwtSecret ?? TokenIssuer.makeRandomSecret(), demoPassword: demoPassword)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
