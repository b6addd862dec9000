import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Weight and body fat go through the pipeline height uses: logged, corrected, removed and undone,
/// posted as `/progress` entries of their own type, and never touching the current height.
struct MeasurementPipelineTests {
    @Test(arguments: [Metric.weight, Metric.bodyFat])
    func aLoggedMeasurementIsPostedWithItsTypeAndLeavesTheHeightAlone(_ metric: Metric) async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let heightBefore = try await account.cached().profile?.heightCm
        let value = metric == .weight ? 72.4 : 18.5

        let logged = try await account.apply(.measurement(metric, value)).outcome
        guard case .logged(_, let isCurrentHeight) = logged else {
            Issue.record("\(logged)")
            return
        }
        #expect(!isCurrentHeight)
        #expect(try await account.syncNow().isSynced)

        let posts = await harness.backend.requests(.logProgress).compactMap { request -> NewProgressEntry? in
            guard case .logProgress(let entry) = request else { return nil }
            return entry
        }
        #expect(posts.map(\.type) == [metric.type])
        #expect(posts.map(\.quantity) == [value])
        #expect(await harness.backend.requests(.updatePhysical).isEmpty)
        let cached = try await account.cached()
        #expect(cached.profile?.heightCm == heightBefore)
        #expect(cached.history(of: metric).map(\.quantity) == [value])
        #expect(cached.history(of: metric).allSatisfy { $0.isSynced })
        #expect(cached.history(of: .height).allSatisfy { $0.type == Metric.height.type })
    }

    @Test func aValueOutOfRangeIsRefusedWithTheFieldAndTheRuleAndNothingIsQueued() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await #expect(throws: ValidationError.self) { try await account.apply(.measurement(.weight, 1.5)) }
        await #expect(throws: ValidationError.self) { try await account.apply(.measurement(.bodyFat, 80)) }
        let error = await #expect(throws: ValidationError.self) { try await account.apply(.measurement(.weight, 700)) }
        #expect(error?.field == .weight)
        #expect(error?.description.contains("between 2 and 635 kg") == true)
        #expect(try await account.cached().outbox.isEmpty)
    }

    @Test func aWeightIsCorrectedRemovedAndUndoneOnTheServer() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.weight, 80.2))
        try await account.apply(.measurement(.bodyFat, 20.1))
        #expect(try await account.syncNow().isSynced)
        let weight = try #require(try await account.cached().history(of: .weight).first)
        let weightId = try #require(weight.serverId)

        // An id of another metric is not a weight.
        let fat = try #require(try await account.cached().history(of: .bodyFat).first?.serverId)
        await #expect(throws: CorrectionError.noSuchEntry(fat, metric: "weight")) {
            try await account.deleteEntry(of: .weight, id: fat)
        }

        let (before, after) = try await account.correctEntry(of: .weight, id: weightId, to: 79.8)
        #expect(before.quantity == 80.2)
        #expect(after.type == Metric.weight.type)
        #expect(after.loggedAt == weight.loggedAt)
        #expect(try await account.syncNow().isSynced)
        var onServer = await harness.backend.entries.filter { $0.type == "weight" }
        #expect(onServer.map(\.quantity) == [79.8])

        let undone = try await account.undo()
        #expect(undone?.description.contains("79.8") == false)
        #expect(undone?.description.contains("80.2 kg") == true)
        #expect(try await account.syncNow().isSynced)
        onServer = await harness.backend.entries.filter { $0.type == "weight" }
        #expect(onServer.map(\.quantity) == [80.2])

        let current = try #require(try await account.cached().history(of: .weight).first?.serverId)
        try await account.deleteEntry(of: .weight, id: current)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.entries.filter { $0.type == "weight" }.isEmpty)
        // The body fat entry and the heights were never touched.
        #expect(await harness.backend.entries.contains { $0.id == fat })
        #expect(await harness.backend.requests(.updatePhysical).isEmpty)
    }

    @Test func undoingALoggedWeightRemovesItAndKeepsTheCurrentHeight() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.height, 181))
        #expect(try await account.syncNow().isSynced)
        try await account.apply(.measurement(.weight, 75))
        let step = try await account.undo()
        #expect(step?.description.hasPrefix("the weight 75.0 kg logged on") == true)
        let cached = try await account.cached()
        #expect(cached.history(of: .weight).isEmpty)
        #expect(cached.profile?.heightCm == 181)
        #expect(cached.outbox.isEmpty)
    }

    @Test func entriesOfEachMetricOnTheServerAreMergedUnderTheirOwnMetric() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let now = harness.clock.date()
        let fromElsewhere = [
            RemoteProgressEntry(id: "w1", type: "weight", quantity: 70.5, loggedAt: now - 3_600),
            RemoteProgressEntry(id: "f1", type: "body_fat_percentage", quantity: 17.2, loggedAt: now - 7_200),
            RemoteProgressEntry(id: "b1", type: "bmi", quantity: 22.1, loggedAt: now - 3_600),
        ]
        await harness.backend.setEntries(await harness.backend.entries + fromElsewhere)

        #expect(try await account.syncNow().isSynced)
        let cached = try await account.cached()
        #expect(cached.history(of: .weight).map(\.quantity) == [70.5])
        #expect(cached.history(of: .bodyFat).map(\.quantity) == [17.2])
        // A BMI another device posted is kept under its own type, never among the weights.
        #expect(cached.history(of: .recordedBMI).map(\.quantity) == [22.1])
        #expect(cached.history.filter { $0.type == "bmi" }.map(\.serverId) == ["b1"])

        // Deleted on another device: a full read drops it here, and only it.
        await harness.backend.setEntries(await harness.backend.entries.filter { $0.id != "w1" })
        try await account.engine.refreshHistory(full: true)
        let after = try await account.cached()
        #expect(after.history(of: .weight).isEmpty)
        #expect(after.history(of: .bodyFat).map(\.quantity) == [17.2])
    }
}
