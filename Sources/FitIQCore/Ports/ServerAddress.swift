#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A validated backend base URL: `https://` anywhere, plain `http://` only to loopback unless allowed.
public struct ServerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The base URL without a trailing slash, e.g. `https://api.example.com`.
    public let url: URL

    /// Why a server address was refused (worded by FitIQWords).
    public enum Problem: Error, Equatable {
        case malformed(String)
        case unsupportedScheme(String)
        case insecure(String)
    }

    /// Validates `text`.
    public init(_ text: String, allowInsecureHTTP: Bool = false) throws(Problem) {
        let trimmed = text.trimmingSpaces()
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
        else { throw .malformed(text) }
        switch scheme {
        case "https": break
        case "http": if !allowInsecureHTTP && !Self.isLoopback(host) { throw .insecure(text) }
        default: throw .unsupportedScheme(text)
        }
        var cleaned = trimmed
        while cleaned.hasSuffix("/") { cleaned.removeLast() }
        guard let url = URL(string: cleaned) else { throw .malformed(text) }
        self.url = url
    }

    public var description: String { url.absoluteString }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        var host = Substring(host.lowercased())
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
