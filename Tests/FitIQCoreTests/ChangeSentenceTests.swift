import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Every sentence about a change names its metric and shows the value in its unit, for every metric of
/// the table and in both unit systems: a metric added to `Metric.all` is covered with no new code.
struct ChangeSentenceTests {
    static let cases: [(Metric, UnitSystem)] = Metric.all.flatMap { metric in
        UnitSystem.allCases.map { (metric, $0) }
    }

    /// A value in the middle of the metric's range, shown as `units` shows it.
    private static func value(of metric: Metric) -> Double {
        ((metric.allowedRange.lowerBound + metric.allowedRange.upperBound) / 2).rounded()
    }

    /// Whether `sentence` names `metric` and shows `value` in `units` (so its unit too).
    private static func names(_ sentence: String?, _ metric: Metric, _ value: Double, _ units: UnitSystem) -> Bool {
        guard let sentence else { return false }
        return sentence.contains(metric.name) && sentence.contains(metric.format(value, unitSystem: units))
    }

    @Test(arguments: cases)
    func aPendingReadingIsNamedByItsMetricEverywhere(metric: Metric, units: UnitSystem) async throws {
        // Given an account in `units`, with the server out of reach
        let harness = TestHarness()
        let account = try await harness.signedIn()
        if units != .metric { try await account.updateMetadata(unitSystem: units) }
        try await account.syncNow()
        await harness.backend.setOffline(true)
        let value = Self.value(of: metric)

        // When a reading is logged: status names it, and undo says what it undid. The reading is logged
        // by the use case itself (`log`), each time: `apply` finds a height the same as the current one
        // unchanged and logs nothing.
        try await account.log(metric, value)
        let status = try await account.status()
        let pending = try #require(status.changes.last)
        #expect(Self.names(pending.summary, metric, value, units), "\(pending.summary)")
        let undone = try await account.undo()
        #expect(Self.names(undone?.description, metric, value, units), "\(String(describing: undone))")
        // The logout refusal names it
        try await account.log(metric, value)
        await #expect {
            try await harness.accounts.signOut(account, discardPending: false, syncFor: 0)
        } throws: { error in
            Self.names((error as? AccountError)?.description, metric, value, units)
        }
        await harness.backend.setOffline(false)
        harness.clock.advance(by: .seconds(120))
        #expect(try await account.push().isSynced)

        // A reading the server refused is named in the rejection
        await harness.backend.inject(.fail(.rejected(status: 400, message: "refused")), into: .logProgress)
        try await account.log(metric, value)
        try await account.push()
        let rejected = try #require(try await account.status().changes.first { $0.rejection != nil })
        #expect(Self.names(rejected.summary, metric, value, units), "\(rejected.summary)")
        try await account.discard(rejected.item)

        // A reading on the server, removed here while offline: the pending removal and its undo
        try await account.log(metric, value)
        try await account.push()
        let entry = try #require(try await account.history(of: metric, refresh: false).first)
        await harness.backend.setOffline(true)
        try await account.deleteEntry(of: metric, id: entry.publicId)
        let removal = try #require(try await account.status().changes.first { $0.summary.contains("remove") })
        #expect(Self.names(removal.summary, metric, value, units), "\(removal.summary)")
        let restored = try await account.undo()
        #expect(Self.names(restored?.description, metric, value, units), "\(String(describing: restored))")
        #expect(restored?.description.hasPrefix("the removal of the \(metric.name) ") == true)
    }
}
