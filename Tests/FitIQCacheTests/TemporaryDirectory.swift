import FitIQTestBasics
import Foundation

/// Runs `body` with a fresh empty folder, removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    try await TemporaryFolder.with("fitiq-cache-tests", body)
}

/// The permission bits of `url` (`0o600`).
func permissions(of url: URL) throws -> Int {
    var info = stat()
    guard stat(url.path, &info) == 0 else { throw POSIXError(.ENOENT) }
    return Int(info.st_mode & 0o777)
}

/// Names in `folder`, sorted; empty when it does not exist.
func fileNames(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}
