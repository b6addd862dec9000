import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCache

/// `account.json` is written with its queued posts each encoded once while it stays the same, and its
/// segments' files directly: the bytes must be those of encoding the whole file.
struct AccountEncodingTests {
    private func contents(entries count: Int, name: String, journal: Int = 0) -> AccountFileContents {
        let state = CacheFixtures.state(name: name)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let entries = (0..<count).map { index in
            ProgressEntry(
                serverId: "p-\(index)", quantity: 170 + Double(index % 9) / 10,
                loggedAt: start.addingTimeInterval(Double(index) * 3_600), source: .server)
        }
        return AccountFileContents(
            state: state, journal: entries.prefix(journal).map { .put($0, previous: nil) }, nextGeneration: 9,
            files: PartFiles(index: "index.7.json", summaries: [ProgressEntry.heightType: "summary-height.8.json"]),
            older: nil)
    }

    /// An entry is written with its date and id as the number and the text they encode as: the bytes
    /// are those of the synthesized encoding, whatever fields it has.
    @Test func anEntrysBytesAreThoseOfItsSynthesizedEncoding() throws {
        // The fields in the order the file lists them (keys sorted).
        struct Synthesized: Encodable {
            var id: UUID
            var loggedAt: Date
            var notes: String?
            var quantity: Double
            var serverId: String?
            var source: String
            var type: String
        }
        let instants = [0, 1e-7, -1.5, 786_297_600.123_456_7, 1e9 / 3, -3e9, 1e14]
        for (index, instant) in instants.enumerated() {
            let entry = ProgressEntry(
                serverId: index.isMultiple(of: 2) ? "w-\(index)" : nil, type: Metric.all[index % 3].type,
                quantity: 70 + Double(index) / 7, loggedAt: Date(timeIntervalSinceReferenceDate: instant),
                notes: index.isMultiple(of: 3) ? "a \"note\" / \u{1F3C3}" : nil, source: .import)
            let written = AccountFile.EntryV1(entry)
            let expected = Synthesized(
                id: written.id, loggedAt: written.loggedAt, notes: written.notes, quantity: written.quantity,
                serverId: written.serverId, source: written.source, type: written.type)
            for encoder in [CacheFileDecoding.compactEncoder, CacheFileDecoding.encoder] {
                #expect(try encoder.encode(written) == encoder.encode(expected))
            }
            let read = try CacheFileDecoding.decoder.decode(
                AccountFile.EntryV1.self, from: CacheFileDecoding.compactEncoder.encode(written))
            #expect(read.domain == entry)
        }
    }

    @Test func theBytesAreTheWholeFilesAndReadBack() throws {
        let first = contents(entries: 500, name: "Ada", journal: 3)
        var posts: AccountFileV3.EncodedPosts?
        let bytes = try AccountFileV3.encode(first, reusing: &posts)
        #expect(bytes == (try CacheFile<AccountFileV3>.encode(first)))
        #expect(CacheFile<AccountFileV3>.value(bytes) == first)
        // The parts are names: the file stays small whatever the history holds.
        #expect(bytes.count < 8 * 1_024)
    }

    /// A part's name that leads out of the history folder is damage, not a file to open.
    @Test func aPartNamedOutsideTheHistoryFolderIsRefused() throws {
        var outside = contents(entries: 1, name: "Ada")
        outside.files.summaries[ProgressEntry.heightType] = "../account.json"
        let bytes = try CacheFile<AccountFileV3>.encode(outside)
        guard case .unreadable = CacheFile<AccountFileV3>.decode(bytes) else {
            Issue.record("a part outside the history folder was accepted")
            return
        }
    }

    @Test func queuedPostsEncodedOnceStillGiveTheWholeFilesBytes() throws {
        var value = contents(entries: 20, name: "Ada")
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for index in 0..<300 {
            value.state.record(
                .weight, 70 + Double(index % 7) / 10, measuredAt: start.addingTimeInterval(Double(index) * 60),
                source: .import, notes: index == 5 ? #"a note with "progress":[] in it"# : nil)
        }
        value.state.history.entries = []
        var parts: AccountFileV3.EncodedPosts?
        #expect(try AccountFileV3.encode(value, reusing: &parts) == CacheFile<AccountFileV3>.encode(value))
        #expect(parts?.posts.count == value.state.outbox.progress.count)

        // A batch claimed (its posts change), then answered (they leave the queue): the posts kept are
        // reused, the changed ones encoded again, and the bytes match the whole file's each time.
        let batch = value.state.outbox.dueProgressPosts(now: start, limit: 16)
        for operation in batch { value.state.begin(operation, owner: UUID(), now: start) }
        #expect(try AccountFileV3.encode(value, reusing: &parts) == CacheFile<AccountFileV3>.encode(value))
        for operation in batch {
            value.state.finish(operation, outcome: .logged(serverId: UUID().uuidString), now: start, random: 0)
        }
        let answered = try AccountFileV3.encode(value, reusing: &parts)
        #expect(answered == (try CacheFile<AccountFileV3>.encode(value)))
        #expect(parts?.posts.count == value.state.outbox.progress.count)
        #expect(CacheFile<AccountFileV3>.value(answered) == value)

        // Nothing queued: an empty list, as the encoder writes it.
        value.state.outbox.progress = []
        #expect(try AccountFileV3.encode(value, reusing: &parts) == CacheFile<AccountFileV3>.encode(value))
    }

    /// A month's file is written directly, not through `JSONEncoder`: the bytes must be the encoder's,
    /// for texts with every character JSON escapes and numbers of every form `Double` prints.
    @Test func aSegmentsBytesAreThoseJSONEncoderWrites() throws {
        let controls = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let texts = [
            "", "plain", controls, #"a "quoted" \ back\slash / and //"#, "\u{7F}\u{80}é\u{2028}\u{2029}\u{FEFF}🏃‍♀️",
            "tab\tnew\nline\rcarriage", "\u{0}",
        ]
        let numbers = [
            0, -0.0, 1, -1, 0.1, 70.25, 1e-7, 1e-5, 123_456_789.5, 1e15, 1e16, 1.5e300, -3e9,
            Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, .pi, 786_297_600.123_456_7,
        ]
        // Instants the cache reads back (far ones are refused as damage).
        let instants = [0, 1e-7, -1.5, 786_297_600.123_456_7, 1e9 / 3, -3e9, 1e14]
        var entries: [ProgressEntry] = []
        for (index, number) in numbers.enumerated() {
            entries.append(
                ProgressEntry(
                    serverId: index.isMultiple(of: 3) ? nil : texts[index % texts.count],
                    type: index.isMultiple(of: 4) ? texts[(index + 1) % texts.count] : Metric.all[index % 3].type,
                    quantity: number, loggedAt: Date(timeIntervalSinceReferenceDate: instants[index % instants.count]),
                    notes: index.isMultiple(of: 2) ? texts[(index + 2) % texts.count] : nil,
                    source: [.manual, .health, .server, .import][index % 4]))
        }
        for segment in [
            HistorySegment(key: SegmentKey(metric: "height", month: "2025-03"), entries: entries),
            HistorySegment(key: SegmentKey(metric: "we\"ight/", month: "1969-12"), entries: []),
            HistorySegment(key: SegmentKey(metric: "weight", month: "2024-01"), entries: Array(entries.prefix(1))),
        ] {
            let written = try HistorySegmentFile.encoded(segment)
            let expected = try CacheFileDecoding.compactEncoder.encode(HistorySegmentFile(value: segment))
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            #expect(CacheFile<HistorySegmentFile>.value(written) == segment)
        }
        // What JSON cannot hold is refused, as the encoder refuses it.
        for number in [Double.nan, .infinity, -.infinity] {
            var entry = entries[0]
            entry.quantity = number
            let segment = HistorySegment(key: SegmentKey(metric: "height", month: "2025-03"), entries: [entry])
            #expect(throws: EncodingError.self) { try HistorySegmentFile.encoded(segment) }
            #expect(throws: EncodingError.self) {
                try CacheFileDecoding.compactEncoder.encode(HistorySegmentFile(value: segment))
            }
        }
    }
}
