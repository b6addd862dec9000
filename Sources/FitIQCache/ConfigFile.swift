#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The config file, `$XDG_CONFIG_HOME/fitiq/config.json`: `{"server": "…", "apiKeyFile": "…", "mouse": false}`,
/// each optional.
public struct ConfigFile: Codable, Equatable, Sendable {
    public var server: String?
    public var apiKeyFile: String?
    /// `false` turns the editor's mouse off (as `--no-mouse` does).
    public var mouse: Bool?

    public init(server: String? = nil, apiKeyFile: String? = nil, mouse: Bool? = nil) {
        self.server = server
        self.apiKeyFile = apiKeyFile
        self.mouse = mouse
    }

    /// The file's contents decoded; throws the decoding error when they are not such an object.
    public static func decode(_ data: Data) throws -> ConfigFile {
        try JSONDecoder().decode(ConfigFile.self, from: data)
    }
}
