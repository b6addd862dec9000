import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Every `--hostile` file ends in a clear error or a safe result, in bounded memory, without hanging.
@Suite(.hostileCorpus)
struct HostileExportTests {
    /// What a hostile file must give.
    enum Outcome: Sendable {
        case malformed, truncated, notUTF8, zipBomb
        case snapshot(sex: HealthValue<BiologicalSex>, dateOfBirth: HealthValue<CalendarDate>)
    }

    static let male = HealthValue<BiologicalSex>.value(.male)
    static let dob = HealthValue<CalendarDate>.value(
        CalendarDate(year: 1988, month: 4, day: 12) ?? .init(containing: .now, in: .utc))

    static let cases: [(String, Outcome)] = [
        // Entities are never declared (no DOCTYPE reaches libxml2): every reference is an error.
        ("billion-laughs-attr.xml", .malformed),
        ("billion-laughs-content.xml", .malformed),
        ("quadratic-blowup.xml", .malformed),
        ("xxe-file.xml", .malformed),
        ("xxe-param-entity.xml", .malformed),
        ("ssrf-http.xml", .malformed),
        ("deep-nesting.xml", .malformed),
        ("truncated.xml", .truncated),
        ("non-utf8.xml", .notUTF8),
        ("non-utf8-attr-name.xml", .notUTF8),
        ("zip-bomb.zip", .zipBomb),
        ("me-unknown-sex.xml", .snapshot(sex: .unknown("HKBiologicalSexIntersexFutureValue"), dateOfBirth: dob)),
        ("me-notset.xml", .snapshot(sex: .notSet, dateOfBirth: .notSet)),
        ("me-missing.xml", .snapshot(sex: .missing, dateOfBirth: .missing)),
        ("ios16-dtd.xml", .snapshot(sex: male, dateOfBirth: dob)),
        ("escapes.xml", .snapshot(sex: male, dateOfBirth: dob)),
        ("zip-slip.zip", .snapshot(sex: male, dateOfBirth: dob)),
    ]

    @Test(arguments: cases)
    func endsInAClearErrorOrASafeResult(_ name: String, _ expected: Outcome) async throws {
        let corpus = try HostileCorpus.shared()
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        // A private copy: whatever the read might create would show up beside it.
        let url = directory.file(name)
        try FileManager.default.copyItem(at: corpus.file(name), to: url)
        let peakBefore = PeakMemory.kilobytes()

        let outcome = try await readExport(url)

        #expect(PeakMemory.kilobytes() - peakBefore < 256 * 1024, "memory grew by more than 256 MB")
        #expect(directory.contents() == [name], "reading created files")
        switch expected {
        case .snapshot(let sex, let dateOfBirth):
            let snapshot = try outcome.snapshot()
            #expect(snapshot.biologicalSex == sex)
            #expect(snapshot.dateOfBirth == dateOfBirth)
            #expect(snapshot.samples(of: .height).map(\.value) == [178])
        case .malformed:
            guard case .malformed = try #require(outcome.importError) else { return failUnexpected(outcome) }
        case .truncated:
            guard case .truncated = try #require(outcome.importError) else { return failUnexpected(outcome) }
        case .notUTF8:
            guard case .notUTF8 = try #require(outcome.importError) else { return failUnexpected(outcome) }
        case .zipBomb:
            #expect(outcome.importError == .zipBomb(path: url.path, maxRatio: 200))
        }
        if let error = outcome.importError {
            #expect(error.description.hasPrefix(url.path))
            #expect(!error.description.contains("root:"), "an error message shows /etc/passwd")
        }
    }

    @Test
    func noEntityEverReadsALocalFile() async throws {
        let corpus = try HostileCorpus.shared()
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let marker = try #require(passwd.split(separator: "\n").first.map(String.init))
        for name in ["xxe-file.xml", "xxe-param-entity.xml", "billion-laughs-attr.xml"] {
            let outcome = try await readExport(corpus.file(name))
            if case .success(let snapshot) = outcome.result {
                #expect(!"\(snapshot)".contains(marker))
            }
            #expect(outcome.importError.map { !$0.description.contains(marker) } ?? true)
        }
    }

    @Test
    func noNetworkRequestIsMade() async throws {
        let corpus = try HostileCorpus.shared()

        let outcome = try await readExport(corpus.file("ssrf-http.xml"))

        #expect(outcome.importError != nil)
        #expect(corpus.listener.connectionCount() == 0, "the reader connected to \(corpus.listener.url)")
    }

    @Test
    func zipSlipNamesAreNeverUsedAsPaths() async throws {
        let corpus = try HostileCorpus.shared()
        let escaped = ["/tmp/healthexport-zip-slip.txt", "/tmp/healthexport-zip-abs.txt"]
        let existedBefore = escaped.map { FileManager.default.fileExists(atPath: $0) }

        _ = try await readExport(corpus.file("zip-slip.zip")).snapshot()

        #expect(escaped.map { FileManager.default.fileExists(atPath: $0) } == existedBefore)
        #expect(corpus.directory.contents().filter { $0.contains("healthexport-zip") }.isEmpty)
    }

    @Test
    func characterReferencesAndPredefinedEntitiesAreDecodedWithoutEntitySubstitution() async throws {
        // The parser never substitutes entities (no XML_PARSE_NOENT); what XML itself defines still reads.
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = directory.file("export.xml")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-01-01 10:00:00 +0000"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-12" \
            HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSex&#77;ale"/>
             <Record type="HKQuantityTypeIdentifierHeight" sourceName="Tom &amp; Jerry&#x2019;s &lt;scale&gt;" \
            unit="cm" value="178" startDate="2023-06-01 08:00:00 +0000" endDate="2023-06-01 08:00:00 +0000"/>
            </HealthData>

            """
        try Data(xml.utf8).write(to: url)

        let snapshot = try await readExport(url).snapshot()

        #expect(snapshot.biologicalSex == Self.male)
        #expect(snapshot.samples(of: .height).map(\.value) == [178])
    }

    private func failUnexpected(_ outcome: ReadOutcome) {
        Issue.record("unexpected outcome: \(outcome.result)")
    }
}

/// The process's peak resident set size so far (`VmHWM`), in kilobytes.
enum PeakMemory {
    static func kilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
