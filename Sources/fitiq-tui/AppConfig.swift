import FitIQCache
import FitIQCore
import FitIQHTTP
import Foundation

/// Everything the composition root needs from the outside world, injectable for tests.
struct AppConfig: Sendable {
    var environment: [String: String]
    var home: URL
    var serverFlag: String?
    var apiKeyFile: String?
    var allowInsecureHTTP: Bool

    /// The configuration of this process.
    static func live(options: GlobalOptions) -> AppConfig {
        live(serverFlag: options.server, apiKeyFile: options.apiKeyFile, allowInsecureHTTP: options.allowInsecureHTTP)
    }

    /// The configuration of this process with these option values (none given: the defaults).
    static func live(serverFlag: String? = nil, apiKeyFile: String? = nil, allowInsecureHTTP: Bool = false) -> AppConfig
    {
        AppConfig(
            environment: ProcessInfo.processInfo.environment,
            home: FileManager.default.homeDirectoryForCurrentUser, serverFlag: serverFlag, apiKeyFile: apiKeyFile,
            allowInsecureHTTP: allowInsecureHTTP)
    }
}

/// The config file, `$XDG_CONFIG_HOME/fitiq/config.json`.
struct ConfigFile: Codable, Equatable {
    var server: String?
    var apiKeyFile: String?

    static func load(from url: URL) throws -> ConfigFile? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch {
            throw CLIError.badConfig(path: url.path, reason: String(describing: error))
        }
    }
}

/// Errors of the command line itself; the description is what the user reads.
enum CLIError: Error, CustomStringConvertible {
    case noServer
    case noAPIKey
    case unreadableAPIKeyFile(path: String)
    case badConfig(path: String, reason: String)
    case noPassword

    var description: String {
        switch self {
        case .noServer:
            "No server is configured: pass --server https://…, set FITIQ_SERVER, or put \"server\" in "
                + "$XDG_CONFIG_HOME/fitiq/config.json."
        case .noAPIKey:
            "No API key: set FITIQ_API_KEY, pass --api-key-file PATH, or put \"apiKeyFile\" in the config file."
        case .unreadableAPIKeyFile(let path):
            "The API key file \(path) cannot be read or is empty."
        case .badConfig(let path, let reason):
            "The config file \(path) is not valid JSON of the form {\"server\": \"…\", \"apiKeyFile\": \"…\"}: \(reason)"
        case .noPassword:
            "No password was given on standard input."
        }
    }
}
