import Foundation
import Synchronization
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
    /// Files of one folder written together: each flushed, the folder flushed once for them all, and a
    /// dead writer's leftover of any of them removed.
    @Test func filesWrittenTogetherFlushTheFolderOnce() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let flushes = Mutex(0)
            let files = (1...5).map { number in
                var file = AtomicFile(url: folder.appendingPathComponent("segment-\(number).json"))
                file.system.fsync = { descriptor in
                    flushes.withLock { $0 += 1 }
                    return Glibc.fsync(descriptor)
                }
                return file
            }
            let dead = folder.appendingPathComponent("\(files[3].temporaryPrefix)\(Int32.max - 1)-42")
            try Data("partial".utf8).write(to: dead)

            try AtomicFile.write(files.map { ($0, Data("\($0.url.lastPathComponent)".utf8)) })

            #expect(flushes.withLock { $0 } == 6)  // five files, one folder (one at a time: ten)
            #expect(fileNames(in: folder) == (1...5).map { "segment-\($0).json" })
            for file in files {
                #expect(try String(contentsOf: file.url, encoding: .utf8) == file.url.lastPathComponent)
            }
        }
    }

    /// More files than a batch keeps open at once: every one is flushed before any is renamed, and a
    /// flush that fails in the last group leaves every file as it was and no temporary file.
    @Test func aBatchOfManyGroupsFlushesEveryFileBeforeItRenamesAny() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let count = AtomicFile.filesOpenAtOnce * 2 + 3
            let calls = Mutex<[String]>([])
            var files = (1...count).map { number in
                var file = AtomicFile(url: folder.appendingPathComponent("segment-\(number).json"))
                file.system.fsync = { descriptor in
                    calls.withLock { $0.append("fsync") }
                    return Glibc.fsync(descriptor)
                }
                file.system.rename = { from, to in
                    calls.withLock { $0.append("rename") }
                    return Glibc.rename(from, to)
                }
                return file
            }

            try AtomicFile.write(files.map { ($0, Data("one \($0.url.lastPathComponent)".utf8)) })

            // Each file, then the renames, then the folder.
            let order = calls.withLock { $0 }
            #expect(
                order == Array(repeating: "fsync", count: count) + Array(repeating: "rename", count: count) + ["fsync"])
            for file in files {
                #expect(try String(contentsOf: file.url, encoding: .utf8) == "one \(file.url.lastPathComponent)")
            }

            files[count - 1].system.fsync = { _ in
                errno = EIO
                return -1
            }
            #expect(throws: CacheError.self) { try AtomicFile.write(files.map { ($0, Data("two".utf8)) }) }
            for file in files {
                #expect(try String(contentsOf: file.url, encoding: .utf8) == "one \(file.url.lastPathComponent)")
            }
            #expect(fileNames(in: folder).count == count)
        }
    }

    /// A rename that fails part way: the files before it are replaced, it and those after keep their
    /// contents, and no temporary file is left.
    @Test func aFailureInABatchLeavesEachFileWholeAndNoTemporaryFile() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            var files = (1...4).map { AtomicFile(url: folder.appendingPathComponent("segment-\($0).json")) }
            for file in files { try file.write(Data("old".utf8)) }
            files[2].system.rename = { _, _ in
                errno = EXDEV
                return -1
            }

            #expect(throws: CacheError.self) { try AtomicFile.write(files.map { ($0, Data("new".utf8)) }) }

            let contents = try files.map { try String(contentsOf: $0.url, encoding: .utf8) }
            #expect(contents == ["new", "new", "old", "old"])
            #expect(fileNames(in: folder) == (1...4).map { "segment-\($0).json" })
        }
    }
}
