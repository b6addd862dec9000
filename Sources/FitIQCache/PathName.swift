import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns server URLs and user ids into safe, distinct file names.
enum PathName {
    /// `api.example.com_443-3f2a9c01b7de` for `https://api.example.com`: readable host and port, plus a
    /// hash of the whole normalised URL, so two servers on one host never share a folder.
    static func serverSlug(_ server: String) -> String {
        let normalized = normalizedServer(server)
        let hash = String(fnv1a(normalized), radix: 16).leftPadded(to: 16).prefix(12)
        guard let components = URLComponents(string: normalized), let host = components.host, !host.isEmpty
        else { return "server-\(hash)" }
        let port = components.port ?? defaultPort(scheme: components.scheme)
        let readable = port.map { "\(host)_\($0)" } ?? host
        return "\(component(readable))-\(hash)"
    }

    /// The server URL with its scheme and host lower-cased and trailing slashes removed.
    static func normalizedServer(_ server: String) -> String {
        var text = server.trimmingWhitespace()
        while text.hasSuffix("/") { text.removeLast() }
        guard var components = URLComponents(string: text) else { return text }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        return components.string ?? text
    }

    /// A file name for arbitrary text: letters, digits, `-` and `_` stay, every other byte becomes `%XX`
    /// (a leading dot too, so `.` and `..` are harmless). The mapping is one-to-one.
    static func component(_ text: String) -> String {
        guard !text.isEmpty else { return "%" }
        var result = PercentEncoding.encode(text) { byte, index in
            PercentEncoding.isAlphanumeric(byte) || byte == 0x2D || byte == 0x5F || (byte == 0x2E && index > 0)
        }
        // File names are limited to 255 bytes; keep long ids distinct with a hash of the whole id.
        if result.utf8.count > 120 {
            result = String(result.prefix(100)) + "~" + String(fnv1a(text), radix: 16).leftPadded(to: 16)
        }
        return result
    }

    private static func defaultPort(scheme: String?) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }

    /// FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
