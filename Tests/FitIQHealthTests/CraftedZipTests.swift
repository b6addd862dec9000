import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQHealth

/// Hand-built archives (`scripts/health/make-crafted-zips.py`) end in errors, promptly.
struct CraftedZipTests {
    static func crafted(in directory: TemporaryFolder) async throws -> URL {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/health/make-crafted-zips.py")
        let folder = directory.file("crafted")
        try await ExportGenerator.python([script.path, folder.path], log: directory.file("crafted.log"))
        return folder
    }

    @Test(arguments: [1 << 20, 4096])
    func aDeflateStreamThatNeverEndsFailsInsteadOfHanging(chunkSize: Int) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = try await Self.crafted(in: directory).appendingPathComponent("never-ending.zip")

        let outcome = try await readExport(url, chunkSize: chunkSize)

        guard case .damagedArchive = try #require(outcome.importError) else {
            Issue.record("expected a damaged archive, got \(outcome.result)")
            return
        }
    }

    @Test
    func compressedDataPastTheEndOfTheFileIsRefused() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = try await Self.crafted(in: directory).appendingPathComponent("past-eof.zip")

        let outcome = try await readExport(url)

        #expect(
            outcome.importError
                == .damagedArchive(path: url.path, reason: "the export member runs past the end of the file"))
    }

    @Test
    func aChecksumMismatchFailsTheWholeRead() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = try await Self.crafted(in: directory).appendingPathComponent("bad-crc.zip")

        let outcome = try await readExport(url)

        #expect(
            outcome.importError
                == .damagedArchive(path: url.path, reason: "the export member fails its CRC-32 check"))
    }

    @Test
    func aBombThatLiesInItsHeaderIsRefused() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = try await Self.crafted(in: directory).appendingPathComponent("lying-bomb.zip")

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
