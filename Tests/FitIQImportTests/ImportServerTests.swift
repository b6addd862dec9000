import FitIQImport
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// The CSV import's look at the server before it queues readings.
struct CSVImportServerTests {
    static let file = "date,weight\n2025-03-01,80.5\n2025-03-08,79.8\n"

    static func read() throws -> ImportedFile {
        ImportedFile(name: "weights.csv", file: try TableReader.read(file, ImportOptions(zone: .utc)))
    }

    @Test func newReadingsAreCheckedAgainstTheServerFirst() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.clearRequests()
        let applied = try await account.apply(.importFiles([try Self.read()]), sending: true)
        #expect(applied.outcome == .imported(ImportChangeTests.result(read: 2, new: 2, there: 0), preview: false))
        #expect(await !harness.backend.requests(.listProgress).isEmpty)
    }

    /// `--no-sync` (not sending): nothing goes over the network, not even the look.
    @Test func withoutReadingTheServerNothingIsAsked() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.clearRequests()
        let applied = try await account.apply(.importFiles([try Self.read()]))
        #expect(applied.outcome == .imported(ImportChangeTests.result(read: 2, new: 2, there: 0), preview: false))
        #expect(await harness.backend.requests.isEmpty)
        #expect(try await account.cached().outbox.progress.count == 2)
    }
}
