import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Apple Health's activity records as a day's total each: an iPhone and a Watch counting the same walk
/// give one day's count, the Watch's stages give the hours asleep (not the iPhone's in-bed span), and a
/// second import adds nothing.
struct AppleHealthActivityTests {
    /// An iPhone and a Watch counting the same walk, energy in kcal and kJ, water, food, a resting
    /// heart rate, the iPhone's in-bed span beside the Watch's stages, and an old export's "Asleep": the
    /// `health-xml` fuzz target's seed (scripts/fuzz/make-seeds.py writes it).
    static let export: String = {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/health-xml/export-activity.xml")
        return (try? String(contentsOf: seed, encoding: .utf8)) ?? ""
    }()

    static func read(_ document: String) throws -> HealthSnapshot {
        let parser = try HealthXMLParser(fileName: "export.xml")
        try Data(document.utf8).withUnsafeBytes { try parser.feed($0) }
        return try parser.finish()
    }

    static func totals(_ snapshot: HealthSnapshot, _ metric: Metric) -> [String: Double] {
        Dictionary(
            snapshot.activity.totals().filter { $0.metric == metric }.map { ($0.day.description, $0.value) },
            uniquingKeysWith: { first, _ in first })
    }

    @Test func eachMetricIsADaysTotalOnTheDayTheExportWrote() throws {
        let snapshot = try Self.read(Self.export)
        // The phone's 1,500 against the watch's 3,150 on March 1: the watch's day, not 4,650. The
        // phone's 300 at 23:50 belong to March 1 (they start then); New York's 09:00 to March 2.
        #expect(Self.totals(snapshot, .steps) == ["2025-03-01": 3_150, "2025-03-02": 500])
        #expect(abs((Self.totals(snapshot, .distance)["2025-03-01"] ?? 0) - 1.609_344) < 1e-9)
        // Active and basal energy are one total burned: 150.5 + 4184 kJ (1,000 kcal).
        #expect(abs((Self.totals(snapshot, .caloriesOut)["2025-03-01"] ?? 0) - 1_150.5) < 1e-9)
        #expect(Self.totals(snapshot, .water) == ["2025-03-01": 0.75])
        #expect(Self.totals(snapshot, .protein) == ["2025-03-01": 30])
        #expect(Self.totals(snapshot, .restingHeartRate) == ["2025-03-01": 58])
        // The watch's stages, 23:00–02:00 and 02:30–06:30 (7 h), not the phone's 9 h in bed; an old
        // export's plain "Asleep" counts too.
        #expect(Self.totals(snapshot, .sleep) == ["2025-03-02": 7, "2025-03-03": 6])
        #expect(snapshot.refusedRecordCount == 0)
    }

    @Test func negativeAbsurdAndBackwardRecordsAreNamedByLineAndLeftOut() throws {
        let snapshot = try Self.read(
            """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="-40"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2025-03-01 08:00:00 +0100" endDate="2025-03-01 08:10:00 +0100" value="1e9"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2025-03-01 09:00:00 +0100" endDate="2025-03-01 09:10:00 +0100" value="0"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2025-03-01 09:00:00 +0100" endDate="2025-03-01 09:10:00 +0100" value="12"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="A" startDate="2025-03-02 07:00:00 +0100" endDate="2025-03-02 01:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="A" unit="bucket" startDate="2025-03-01 09:00:00 +0100" endDate="2025-03-01 09:00:00 +0100" value="3"/>
            </HealthData>
            """)
        #expect(Self.totals(snapshot, .steps) == ["2025-03-01": 12])
        #expect(Self.totals(snapshot, .sleep).isEmpty)
        #expect(Self.totals(snapshot, .water).isEmpty)
        #expect(snapshot.refusedRecordCount == 3)
        #expect(snapshot.refusedRecords.map(\.line) == [2, 3, 6])
        #expect(
            snapshot.refusedRecords.map(\.rule) == [
                .value(Metric.steps.rangeError), .value(Metric.steps.rangeError), .endsBeforeStart,
            ])
    }

    @Test(arguments: [
        ("1234", 1234.0), ("0.25", 0.25), ("-3", -3.0), ("1e3", 1000.0), (" 7 ", 7.0), ("150.500", 150.5),
    ])
    func numbersAreReadFromTheirBytes(_ text: String, _ value: Double) {
        var text = text
        #expect(text.withUTF8 { HealthActivityRecords.number($0) } == value)
    }

    @Test(arguments: ["", "abc", "1.2.3", "nan", "inf", "-", "."])
    func whatIsNoNumberIsNone(_ text: String) {
        var text = text
        #expect(text.withUTF8 { HealthActivityRecords.number($0) } == nil)
    }

    @Test func aSecondImportOfTheSameExportPostsNothing() async throws {
        let snapshot = try Self.read(Self.export)
        let harness = TestHarness(timeZone: .fixed(secondsEastOfUTC: 3_600))
        let account = try await harness.synced()
        let first = try await account.apply(.importHealth(snapshot, fileName: "export.xml"))
        guard case .healthImported(let imported) = first.outcome else { throw Unexpected.outcome }
        #expect(imported[.steps].isDays)
        #expect(imported[.steps].found == 2)
        #expect(imported[.steps].newEntries.count == 2)
        #expect(imported[.sleep].newEntries.count == 2)
        let history = try await harness.store(of: account).load().history
        #expect(history.filter { $0.type == Metric.steps.type }.map(\.quantity).sorted() == [500, 3_150])
        #expect(history.filter { $0.type == Metric.sleep.type }.allSatisfy { $0.source == .health })

        let again = try await account.apply(.importHealth(snapshot, fileName: "export.xml"))
        guard case .healthImported(let second) = again.outcome else { throw Unexpected.outcome }
        #expect(second.newEntries.isEmpty)
        #expect(second[.steps].daysHeld == 2)
        #expect(second[.sleep].daysHeld == 2)
        #expect(second.queuedAnything == false)
    }

    enum Unexpected: Error { case outcome }
}
