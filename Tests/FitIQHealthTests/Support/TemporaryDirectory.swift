import Foundation

/// A fresh directory under the system's temporary directory, removed with ``remove()``.
struct TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("fitiq-health-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// A path inside the directory.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Every path below the directory, relative to it, sorted.
    func contents() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
