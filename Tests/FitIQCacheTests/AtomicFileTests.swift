import Foundation
import Testing

@testable import FitIQCache

struct AtomicFileTests {
    enum Failure: String, CaseIterable, CustomTestStringConvertible {
        case write, fsync, rename
        var testDescription: String { rawValue }
    }

    @Test func replacesContentsWithTheGivenMode() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let file = AtomicFile(url: folder.appendingPathComponent("nested/file.json"), permissions: 0o600)
            try file.write(Data("one".utf8))
            try file.write(Data("two".utf8))
            #expect(try String(contentsOf: file.url, encoding: .utf8) == "two")
            #expect(try permissions(of: file.url) == 0o600)
            #expect(fileNames(in: file.url.deletingLastPathComponent()) == ["file.json"])
        }
    }

    @Test(arguments: Failure.allCases)
    func failureLeavesTheOldFileIntact(failure: Failure) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            var file = AtomicFile(url: folder.appendingPathComponent("file.json"))
            try file.write(Data("old".utf8))
            switch failure {
            case .write:
                file.system.write = { _, _ in
                    errno = ENOSPC
                    return -1
                }
            case .fsync:
                file.system.fsync = { _ in
                    errno = EIO
                    return -1
                }
            case .rename:
                file.system.rename = { _, _ in
                    errno = EXDEV
                    return -1
                }
            }
            #expect(throws: CacheError.self) { try file.write(Data("new contents".utf8)) }
            #expect(try String(contentsOf: file.url, encoding: .utf8) == "old")
            #expect(fileNames(in: folder) == ["file.json"])
        }
    }

    @Test func diskFullNamesThePathAndTheReason() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            var file = AtomicFile(url: folder.appendingPathComponent("file.json"))
            file.system.write = { _, _ in
                errno = ENOSPC
                return -1
            }
            do {
                try file.write(Data("x".utf8))
                Issue.record("the write should have failed")
            } catch {
                #expect(String(describing: error).contains(file.url.path))
                #expect(String(describing: error).contains("No space left on device"))
            }
        }
    }

    @Test func shortWritesAreCompleted() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            var file = AtomicFile(url: folder.appendingPathComponent("file.json"))
            // A writer that takes at most 3 bytes per call, as a pipe or a signal could cause.
            file.system.write = { fd, buffer in
                Glibc.write(fd, buffer.baseAddress, min(3, buffer.count))
            }
            let text = String(repeating: "0123456789", count: 10)
            try file.write(Data(text.utf8))
            #expect(try String(contentsOf: file.url, encoding: .utf8) == text)
        }
    }

    @Test func staleTemporaryFilesOfDeadWritersAreRemoved() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let file = AtomicFile(url: folder.appendingPathComponent("file.json"))
            // Given a temporary file left by a process that no longer exists, and one of a live process
            let dead = folder.appendingPathComponent("\(file.temporaryPrefix)\(Int32.max - 1)-42")
            let live = folder.appendingPathComponent("\(file.temporaryPrefix)\(getpid())-43")
            try Data("partial".utf8).write(to: dead)
            try Data("partial".utf8).write(to: live)
            // When the file is written
            try file.write(Data("new".utf8))
            // Then only the dead writer's leftover is gone
            #expect(fileNames(in: folder) == [live.lastPathComponent, "file.json"].sorted())
        }
    }
}
