import Foundation

/// A fresh empty folder under the system's temporary folder, named `<prefix>-<UUID>`: every folder a test
/// makes is made here, so no two tests (or two runs) ever share a name.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ prefix: String = "fitiq-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// A path inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Every path below the folder, relative to it, sorted.
    public func contents() -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Runs `body` with a fresh folder, removed when it returns or throws.
    public static func with<T>(_ prefix: String = "fitiq-test", _ body: (URL) async throws -> T) async throws -> T {
        let folder = try TemporaryFolder(prefix)
        defer { folder.remove() }
        return try await body(folder.url)
    }
}
