import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// The reader gives the generator's `--expect` answers for a spread of exports.
struct ExpectedAnswersTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var seed: Int
        var sex: String
        var dob: String = "1988-04-12"
        var placement: String
        var zip: Bool
        var dtd: String = "v14"
        var heights: Int = 24

        var testDescription: String {
            "seed \(seed) \(sex) dob '\(dob)' \(placement) \(zip ? "zip" : "xml") dtd \(dtd)"
        }

        var options: [String] {
            var options = [
                "--mb", "2", "--seed", "\(seed)", "--sex", sex, "--dob", dob, "--height-placement", placement,
                "--dtd", dtd, "--heights", "\(heights)",
            ]
            if zip { options.append("--zip") }
            return options
        }
    }

    static let cases: [Case] = [
        Case(seed: 1, sex: "female", placement: "grouped", zip: false),
        Case(seed: 2, sex: "male", placement: "scattered", zip: true),
        Case(seed: 3, sex: "other", placement: "scattered", zip: false, dtd: "ios16"),
        Case(seed: 4, sex: "notset", dob: "", placement: "grouped", zip: true, dtd: "none"),
        Case(seed: 5, sex: "female", placement: "scattered", zip: false, dtd: "none", heights: 60),
        Case(seed: 6, sex: "male", placement: "grouped", zip: true, dtd: "ios16"),
        Case(seed: 7, sex: "other", dob: "", placement: "scattered", zip: true),
    ]

    @Test(arguments: cases)
    func readsTheGeneratorsAnswers(_ testCase: Case) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, answers) = try await ExportGenerator.export(
            in: directory, name: testCase.zip ? "export.zip" : "export.xml", testCase.options)

        let snapshot = try await readExport(url).snapshot()

        #expect(snapshot.biologicalSex == HealthValueMapping.biologicalSex(answers.meSex))
        #expect(snapshot.biologicalSex == Self.sex(testCase.sex))
        #expect(
            snapshot.dateOfBirth
                == (answers.meDob.isEmpty
                    ? .notSet
                    : .value(
                        try #require(
                            CalendarDate(parsing: answers.meDob)))))
        #expect(snapshot.exportedAt == Date(timeIntervalSince1970: 1_748_761_964))  // 2025-06-01 07:12:44 UTC
        #expect(snapshot.samples(of: .height).count == answers.count)
        let latest = try #require(snapshot.latestHeight)
        #expect(latest.measuredAt == ExportGenerator.instant(answers.latestStartDate))
        #expect(abs(latest.value - answers.latestCm) < 0.01)
        // The decoy sorts last as text and comes last in the file, yet is 30 minutes earlier.
        let decoyInstant = try #require(ExportGenerator.instant(answers.decoyStartDate))
        #expect(
            snapshot.samples(of: .height).contains {
                $0.measuredAt == decoyInstant && abs($0.value - answers.decoyCm) < 0.01
            })
        #expect(decoyInstant < latest.measuredAt)
        #expect(
            snapshot.samples(of: .height).map(\.measuredAt) == snapshot.samples(of: .height).map(\.measuredAt).sorted())
    }

    @Test(arguments: [64, 1000, 4096, 65_536])
    func chunkSizeDoesNotChangeTheResult(_ chunkSize: Int) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (xml, _) = try await ExportGenerator.export(in: directory, ["--mb", "0.5", "--seed", "11"])
        let (zip, _) = try await ExportGenerator.export(
            in: directory, name: "export.zip", ["--mb", "0.5", "--seed", "11", "--zip"])

        let reference = try await readExport(xml).snapshot()
        let smallXML = try await readExport(xml, chunkSize: chunkSize).snapshot()
        let smallZip = try await readExport(zip, chunkSize: chunkSize).snapshot()

        #expect(smallXML == reference)
        #expect(smallZip == reference)
    }

    private static func sex(_ option: String) -> HealthValue<BiologicalSex> {
        switch option {
        case "male": .value(.male)
        case "female": .value(.female)
        case "other": .value(.other)
        default: .notSet
        }
    }
}
