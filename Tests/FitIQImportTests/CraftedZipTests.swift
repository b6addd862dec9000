import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Hand-built archives (`scripts/health/make-crafted-zips.py`) end in errors, promptly.
struct CraftedZipTests {
    /// Runs `body` with the crafted archive `name`, in a folder removed afterwards.
    static func withCrafted(_ name: String, _ body: (URL) async throws -> Void) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/health/make-crafted-zips.py")
        let folder = directory.file("crafted")
        try await ExportGenerator.python([script.path, folder.path], log: directory.file("crafted.log"))
        try await body(folder.appendingPathComponent(name))
    }

    @Test(arguments: [1 << 20, 4096])
    func aDeflateStreamThatNeverEndsFailsInsteadOfHanging(chunkSize: Int) async throws {
        try await Self.withCrafted("never-ending.zip") { url in
            let outcome = try await readExport(url, chunkSize: chunkSize)

            guard case .damagedArchive = try #require(outcome.importError) else {
                Issue.record("expected a damaged archive, got \(outcome.result)")
                return
            }
        }
    }

    /// Compressed data past the end of the file, and a checksum mismatch, fail the whole read.
    @Test(arguments: [
        ("past-eof.zip", "the export member runs past the end of the file"),
        ("bad-crc.zip", "the export member fails its CRC-32 check"),
    ])
    func aDamagedMemberIsRefusedSayingHow(file: String, reason: String) async throws {
        try await Self.withCrafted(file) { url in
            let outcome = try await readExport(url)
            #expect(outcome.importError == .damagedArchive(path: url.path, reason: reason))
        }
    }

    @Test
    func aBombThatLiesInItsHeaderIsRefused() async throws {
        try await Self.withCrafted("lying-bomb.zip") { url in
            // With small chunks the ratio trips first; with 1 MiB ones the whole member is one chunk.
            let byRatio = try await readExport(url, chunkSize: 4096)
            let bySize = try await readExport(url)

            #expect(byRatio.importError == .zipBomb(path: url.path, maxRatio: 200))
            guard case .zipMemberLargerThanDeclared = try #require(bySize.importError) else {
                Issue.record("expected a refusal, got \(bySize.result)")
                return
            }
        }
    }
}
