import FitIQCache
import FitIQCore
import Foundation
import Testing

struct CorruptFileTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        // (A newer schema version is not damage: it is refused and left in place, see AccountFileFormatTests.)
        case garbage, truncated, olderSchema, emptyFile, wrongShape, dateOutOfRange

        var testDescription: String { rawValue }

        func bytes(of valid: Data) -> Data {
            switch self {
            case .garbage: Data("this is not JSON \u{0}\u{1}".utf8)
            case .truncated: valid.prefix(valid.count / 2)
            case .olderSchema:
                Data(#"{"schemaVersion": 0, "state": {"outbox": {"progress": []}, "history": []}}"#.utf8)
            case .emptyFile: Data()
            case .wrongShape: Data(#"{"schemaVersion": 1, "state": {"history": "no"}}"#.utf8)
            // Valid JSON whose date overflowed the calendar arithmetic: reading the file crashed the program.
            case .dateOutOfRange:
                Data(
                    #"""
                    {"schemaVersion": 1, "state": {"outbox": {"progress": []}, "history": [{"id": \#
                    "6DC865AB-9004-4C61-8AA6-9F83469FB9A3", "loggedAt": 1e308, "quantity": 180, "source": "manual", \#
                    "type": "height"}]}}
                    """#.utf8)
            }
        }

        var reasonMentions: String {
            switch self {
            case .garbage, .truncated, .emptyFile: "not valid JSON"
            case .olderSchema: "schemaVersion 0"
            case .wrongShape: "state"
            case .dateOutOfRange: "loggedAt is invalid: 1e+308 is not a date: it is more than 3 million years from 2001"
            }
        }
    }

    static let fixedNow = Date(timeIntervalSince1970: 1_735_787_045.6785)  // 2025-01-02T03:04:05.678Z

    private func makeStore(in folder: URL) -> JSONFileProfileStore {
        JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")),
            now: { Self.fixedNow })
    }

    /// Writes a damaged `account.json` and returns its bytes.
    private func damage(_ store: JSONFileProfileStore, _ damage: Damage) async throws -> Data {
        try await store.update { $0 = CacheFixtures.state(name: "Ada") }
        let bytes = damage.bytes(of: try Data(contentsOf: store.fileURL))
        try bytes.write(to: store.fileURL)
        return bytes
    }

    @Test(arguments: Damage.allCases)
    func loadMovesUnreadableFileAside(damage kind: Damage) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            let bytes = try await damage(store, kind)
            let expectedAside = store.fileURL.path + ".corrupt-20250102T030405.678Z"
            do {
                _ = try await store.load()
                Issue.record("an unreadable file must be reported")
            } catch let error as CacheError {
                guard case .corrupt(let path, let movedTo, let reason) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(path == store.fileURL.path)
                #expect(movedTo == expectedAside)
                #expect(reason.contains(kind.reasonMentions))
                #expect(error.description.contains(store.fileURL.path))
                #expect(error.description.contains(expectedAside))
            }
            // The bytes are kept, byte for byte, and the next load starts empty.
            #expect(try Data(contentsOf: URL(fileURLWithPath: expectedAside)) == bytes)
            #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
            #expect(try await store.load() == .empty)
        }
    }

    @Test func updateNeverOverwritesAnUnreadableFile() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            let bytes = try await damage(store, .garbage)
            await #expect(throws: CacheError.self) {
                try await store.update { $0 = CacheFixtures.state(name: "Bob") }
            }
            let aside = try #require(fileNames(in: store.folder).first { $0.hasPrefix("account.json.corrupt-") })
            #expect(try Data(contentsOf: store.folder.appendingPathComponent(aside)) == bytes)
            // Then the next update starts from an empty cache.
            try await store.update { $0 = CacheFixtures.state(name: "Bob") }
            #expect(try await store.load() == CacheFixtures.state(name: "Bob"))
        }
    }

    @Test func secondCorruptionKeepsTheFirstCopy() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            let first = try await damage(store, .garbage)
            _ = try? await store.load()
            let second = try await damage(store, .truncated)
            _ = try? await store.load()
            let asides = fileNames(in: store.folder).filter { $0.contains(".corrupt-") }
            #expect(
                asides == ["account.json.corrupt-20250102T030405.678Z", "account.json.corrupt-20250102T030405.678Z-2"])
            #expect(try Data(contentsOf: store.folder.appendingPathComponent(asides[0])) == first)
            #expect(try Data(contentsOf: store.folder.appendingPathComponent(asides[1])) == second)
        }
    }

    @Test func unreadableSessionIsMovedAside() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = JSONFileSessionStore(
                folder: folder, lock: AccountLock(file: folder.appendingPathComponent("lock")))
            try Data("{\"schemaVersion\": 1, \"session\": 3}".utf8).write(to: store.fileURL)
            await #expect(throws: CacheError.self) { try await store.load() }
            #expect(fileNames(in: folder).contains { $0.hasPrefix("session.json.corrupt-") })
            #expect(try await store.load() == nil)
        }
    }
}
