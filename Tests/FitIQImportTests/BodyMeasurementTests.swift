import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Weight (BodyMass) and body fat (BodyFatPercentage) records: each converted by its own unit, a
/// Correlation's repeats left out, and a generated export with the pitfalls of real ones imported
/// as the generator's answers say.
struct BodyMeasurementTests {
    @Test(arguments: [
        ("72.4", "kg", 72.4), ("159.6", "lb", 72.393_342_252), ("11.4", "st", 72.393_342_252), ("72400", "g", 72.4),
        (" 80 ", "kg", 80.0), ("0.5", "st", 3.175_146_59),
    ])
    func convertsBodyMassToKilograms(_ value: String, _ unit: String, _ kilograms: Double) throws {
        let converted = try #require(HealthValueMapping.kilograms(value: value, unit: unit))
        #expect(abs(converted - kilograms) < 1e-9)
    }

    /// Grams are divided, so a reading in g is the very number the same reading in kg is: the import
    /// takes the two as one.
    @Test func gramsAreTheSameNumberAsKilograms() {
        let kilograms = HealthValueMapping.kilograms(value: "72.4", unit: "kg")
        #expect(HealthValueMapping.kilograms(value: "72400", unit: "g") == kilograms)
        #expect(HealthValueMapping.kilograms(value: "81300", unit: "g") == 81.3)
    }

    @Test(arguments: [
        ("72", "oz"), ("72", "KG"), ("72", "kilograms"), ("72", "cm"), ("72", ""), ("abc", "kg"), ("-3", "kg"),
        ("0", "lb"), ("nan", "kg"), ("inf", "st"), ("1e308", "st"), ("9e307", "st"),
    ])
    func skipsWhatIsNotABodyMass(_ value: String, _ unit: String) {
        #expect(HealthValueMapping.kilograms(value: value, unit: unit) == nil)
    }

    @Test(arguments: [("0.162", 16.2), ("0.2", 20.0), (" 0.255", 25.5), ("0.08", 8.0)])
    func convertsABodyFatFractionToPercent(_ value: String, _ percent: Double) throws {
        let converted = try #require(HealthValueMapping.percent(value: value, unit: "%"))
        #expect(abs(converted - percent) < 1e-9)
    }

    @Test(arguments: [
        ("0.162", "count"), ("0.162", ""), ("0.162", "percent"), ("0", "%"), ("-0.1", "%"), ("nan", "%"),
        ("abc", "%"), ("1e308", "%"),
    ])
    func skipsWhatIsNotABodyFatFraction(_ value: String, _ unit: String) {
        #expect(HealthValueMapping.percent(value: value, unit: unit) == nil)
    }

    /// Each record is converted by its own unit; unknown units, other types and the look-alike types
    /// (LeanBodyMass, BodyMassIndex) are skipped.
    @Test func readsEachRecordInItsOwnUnit() throws {
        let snapshot = try read(
            """
            <HealthData locale="fr_FR">
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Santé" unit="lb" startDate="2025-05-02 07:00:00 +0200" value="159.6"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="st" startDate="2025-05-03 07:00:00 +0200" value="11.4"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="g" startDate="2025-05-04 07:00:00 +0200" value="72400"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="oz" startDate="2025-05-05 07:00:00 +0200" value="2550"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" startDate="2025-05-05 07:00:00 +0200" value="72"/>
             <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Withings" unit="%" startDate="2025-05-01 07:00:10 +0200" value="0.162"/>
             <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Withings" unit="count" startDate="2025-05-02 07:00:00 +0200" value="0.17"/>
             <Record type="HKQuantityTypeIdentifierLeanBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="60.1"/>
             <Record type="HKQuantityTypeIdentifierBodyMassIndex" sourceName="Withings" unit="count" startDate="2025-05-01 07:00:10 +0200" value="24.2"/>
             <Record type="HKQuantityTypeIdentifierHeight" sourceName="Health" unit="cm" startDate="2025-05-01 07:00:10 +0200" value="171"/>
            </HealthData>
            """)
        let weights = snapshot.samples(of: .weight)
        try #require(weights.count == 4)
        let expected = [72.4, 72.393_342_252, 72.393_342_252, 72.4]
        for (sample, kilograms) in zip(weights, expected) {
            #expect(abs(sample.value - kilograms) < 1e-9, "\(sample)")
        }
        #expect(weights[0].measuredAt == Date(timeIntervalSince1970: 1_746_075_610))  // 2025-05-01 05:00:10 UTC
        let bodyFat = snapshot.samples(of: .bodyFat)
        try #require(bodyFat.count == 1)
        #expect(abs(bodyFat[0].value - 16.2) < 1e-9)
        #expect(snapshot.samples(of: .height).map(\.value) == [171])
        #expect(snapshot.samples.count == 6)
    }

    /// A record nested in a Correlation repeats a top-level one: it is read once, from the top
    /// level. A Correlation nested in one, or an empty one, does not end the skipping early or late.
    @Test func readsARecordInACorrelationOnce() throws {
        let snapshot = try read(
            """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4"/>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Withings" startDate="2025-05-01 07:00:10 +0200" endDate="2025-05-01 07:00:10 +0200">
              <MetadataEntry key="HKWasUserEntered" value="0"/>
              <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Withings" startDate="2025-05-01 07:00:10 +0200" endDate="2025-05-01 07:00:10 +0200">
               <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4"/>
              </Correlation>
              <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-01 07:00:10 +0200" value="72.4">
               <MetadataEntry key="HKWasUserEntered" value="0"/>
              </Record>
              <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Withings" unit="%" startDate="2025-05-01 07:00:10 +0200" value="0.2"/>
             </Correlation>
             <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Health" startDate="2025-05-02 07:00:00 +0200" endDate="2025-05-02 07:00:00 +0200"/>
             <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Withings" unit="%" startDate="2025-05-01 07:00:10 +0200" value="0.2"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2025-05-03 07:00:00 +0200" value="73"/>
            </HealthData>
            """)
        #expect(snapshot.samples(of: .weight).map(\.value) == [72.4, 73])
        #expect(snapshot.samples(of: .bodyFat).map(\.value) == [20])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var seed: Int
        var zip = false
        var extra: [String] = []

        var testDescription: String { "seed \(seed) \(zip ? "zip" : "xml") \(extra.joined(separator: " "))" }

        var options: [String] {
            ["--mb", "0.5", "--seed", "\(seed)", "--heights", "6", "--weights", "40", "--body-fat", "15"]
                + (zip ? ["--zip"] : []) + extra
        }
    }

    /// One reading written by several sources (localised names, other devices, seconds apart, in kg
    /// and in g), weights in kg, lb and st, body fat as fractions, a Correlation's repeat: the reader
    /// gives every top-level record, and the import keeps the generator's distinct readings.
    @Test(arguments: [
        Case(seed: 3), Case(seed: 8, zip: true, extra: ["--height-placement", "scattered"]),
        Case(seed: 12, extra: ["--body-fat-share", "0.5", "--dtd", "ios16"]),
    ])
    func importsTheGeneratorsDistinctReadings(_ testCase: Case) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, answers) = try await ExportGenerator.export(
            in: directory, name: testCase.zip ? "export.zip" : "export.xml", testCase.options)
        // The pitfalls are there: more records than readings.
        #expect(answers.weightRecords > answers.weightReadings)
        #expect(answers.bodyFatRecords > answers.bodyFatReadings)

        let snapshot = try await readExport(url).snapshot()
        #expect(snapshot.samples(of: .weight).count == answers.weightRecords)
        #expect(snapshot.samples(of: .bodyFat).count == answers.bodyFatRecords)
        #expect(snapshot.samples(of: .height).count == answers.count)

        var state = AccountState.empty
        state.mergeServerProfile(
            TestHarness.serverProfile, identity: AccountIdentity(userId: "u1", email: "jane@example.com"),
            now: Date(timeIntervalSince1970: 1_790_000_000))
        let imported = state.importHealth(snapshot, now: Date(timeIntervalSince1970: 1_790_000_000))
        let result = try #require(imported)
        let expected = [
            Expected(
                metric: .weight, records: answers.weightRecords, readings: answers.weightReadings,
                latestDate: answers.weightLatestStartDate, latestValue: answers.weightLatestKg),
            Expected(
                metric: .bodyFat, records: answers.bodyFatRecords, readings: answers.bodyFatReadings,
                latestDate: answers.bodyFatLatestStartDate, latestValue: answers.bodyFatLatestPercent),
        ]
        for metric in expected {
            #expect(result[metric.metric].found == metric.records)
            #expect(result[metric.metric].outOfRange == 0)
            #expect(result[metric.metric].newEntries.count == metric.readings)
            let entries = state.history.filter { $0.type == metric.metric.type }
            #expect(entries.count == metric.readings)
            let latest = try #require(entries.max { $0.loggedAt < $1.loggedAt })
            #expect(latest.loggedAt == ExportGenerator.instant(try #require(metric.latestDate)))
            #expect(abs(latest.quantity - (try #require(metric.latestValue))) < 0.001)
        }
        #expect(state.history.hasNewReadings(in: snapshot) == false)
    }

    /// What the answers say of one metric.
    struct Expected {
        var metric: Metric
        var records: Int
        var readings: Int
        var latestDate: String?
        var latestValue: Double?
    }

    private func read(_ document: String) throws -> HealthSnapshot {
        let parser = try HealthXMLParser(fileName: "export.xml")
        try Data(document.utf8).withUnsafeBytes { try parser.feed($0) }
        return try parser.finish()
    }
}
