import FitIQImport
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQCore

/// An import goes through the one way in for changes (`Account.apply(.importFiles(…))`): a preview
/// writes nothing, the import adds each reading once, and a reading held already, from any app, is not
/// added again.
struct ImportChangeTests {
    static func file(_ name: String, _ text: String) throws -> ImportedFile {
        ImportedFile(name: name, file: try TableReader.read(text, ImportOptions(zone: .utc)))
    }

    @Test func aPreviewWritesNothingAndASecondImportAddsNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let withings = try Self.file(
            "weight.csv",
            "Date,\"Weight (kg)\",Comments\n\"2024-03-02 07:30:05\",80.40,\n\"2024-03-01 07:29:48\",80.70,\n")
        // Libra in pounds: 177.3 lb at the same minute as Withings' 80.40 kg is 80.42 kg, 80.4 to the 0.1 kg.
        let libra = try Self.file(
            "libra.csv",
            "#Units:lb\n#date;weight;weight trend;body fat;body fat trend;comment\n2024-03-02T07:30:40.000Z;177,3;;;;\n"
        )

        let preview = try await account.apply(.importFiles([withings, libra], preview: true))
        #expect(preview.outcome == .imported(Self.result(read: 3, new: 2, there: 1), preview: true))
        #expect(!preview.outcome.saved)
        #expect(try await account.cached().history(of: .weight).isEmpty)

        let imported = try await account.apply(.importFiles([withings, libra]))
        #expect(imported.outcome == .imported(Self.result(read: 3, new: 2, there: 1), preview: false))
        #expect(imported.outcome.saved)
        let sources = try await account.cached().history(of: .weight).map(\.source)
        #expect(sources.sorted { $0.rawValue < $1.rawValue } == [.withings, .withings])

        let again = try await account.apply(.importFiles([libra, withings]))
        #expect(again.outcome == .imported(Self.result(read: 3, new: 0, there: 3), preview: false))
        #expect(!again.outcome.saved)
    }

    @Test func aBadRowStopsTheImportUnlessSkipped() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let file = try Self.file("weights.csv", "date,weight\n2025-03-01,80.5\n2025-03-02,heavy\n")
        await #expect(throws: BadRowsError.self) { try await account.apply(.importFiles([file])) }
        #expect(try await account.cached().history(of: .weight).isEmpty)
        let skipped = try await account.apply(.importFiles([file], skipInvalid: true))
        #expect(skipped.outcome == .imported(Self.result(read: 1, new: 1, there: 0), preview: false))
    }

    static func result(read: Int, new: Int, there: Int) -> ReadingsImportResult {
        var result = ReadingsImportResult()
        result[.weight] = .init(read: read, new: new, alreadyThere: there)
        return result
    }
}
