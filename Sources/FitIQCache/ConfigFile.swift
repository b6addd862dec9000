#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The config file, `$XDG_CONFIG_HOME/fitiq/config.json`: `{"server": "…", "apiKeyFile": "…"}`, both optional.
public struct ConfigFile: Codable, Equatable, Sendable {
    public var server: String?
    public var apiKeyFile: String?

    public init(server: String? = nil, apiKeyFile: String? = nil) {
        self.server = server
        self.apiKeyFile = apiKeyFile
    }

    /// The file's contents decoded; throws the decoding error when they are not such an object.
    public static func decode(_ data: Data) throws -> ConfigFile {
        try JSONDecoder().decode(ConfigFile.self, from: data)
    }
}
