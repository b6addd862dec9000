import FitIQCore
import FitIQTUI
import Foundation
import Testing

/// The Physical box's weight, body fat and BMI rows, and the history panel that follows the focused
/// measurement.
struct MeasurementFieldsTests {
    /// The profile fixture with weights (the latest 3 days ago) and one body fat reading.
    func withWeights(dateOfBirth: CalendarDate? = nil, width: Int = 80) -> AppState {
        var state = profileState(width: width, height: 30)
        show(weightsAccount(dateOfBirth: dateOfBirth), in: &state)
        return state
    }

    /// The account of ``withWeights(dateOfBirth:width:)``.
    func weightsAccount(dateOfBirth: CalendarDate? = nil) -> AccountState {
        var account = fixtureAccount()
        let day: TimeInterval = 86_400
        for (index, kilograms) in [74.0, 73.1, 72.4].enumerated() {
            account.history.append(
                ProgressEntry(
                    serverId: "w\(index)", type: Metric.weight.type, quantity: kilograms,
                    loggedAt: fixedNow - Double(3 + 10 * (2 - index)) * day, source: .server))
        }
        account.history.append(
            ProgressEntry(
                serverId: "f0", type: Metric.bodyFat.type, quantity: 18.5, loggedAt: fixedNow - day, source: .manual))
        if let dateOfBirth, var profile = account.profile {
            var physical = profile.physical
            physical.dateOfBirth = dateOfBirth
            profile = profile.updatingPhysical(physical)
            account.profile = profile
        }
        return account
    }

    @Test func theRowsShowTheLatestReadingsAndTheBMIWithItsCategory() {
        let lines = screen(withWeights()).lines
        #expect(
            lines.contains { $0.contains("Weight         72.4 kg · 3 days ago") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("Body fat       18.5 % · yesterday") })
        // 72.4 kg at the height on that date (the fixture's latest height before it, 170.5 cm, not
        // today's 170.0 cm, which would give 25.1 and overweight): 24.9.
        #expect(lines.contains { $0.contains("BMI            24.9 · healthy weight") })
        #expect(!lines.contains { $0.contains("adult ranges do not apply") })
    }

    @Test func underTwentyTheBMIHasNoAdultCategory() {
        let lines = screen(withWeights(dateOfBirth: CalendarDate(year: 2010, month: 3, day: 1))).lines
        #expect(lines.contains { $0.contains("BMI            24.9") && !$0.contains("healthy") })
        #expect(lines.contains { $0.contains("adult ranges do not") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func theBMIRowIsReadOnlyAndSaysWhy() {
        var state = withWeights()
        state.profile.focus = .bmi
        #expect(press([.enter], &state) == [])
        #expect(state.profile.editing == nil)
        #expect(state.message?.text.contains("derived from your latest weight") == true)
    }

    @Test func theHistoryFollowsTheFocusedMeasurement() {
        var state = withWeights()
        #expect(screen(state).lines.contains { $0.contains("Height history") })
        press([.down, .down, .down, .down, .down], &state)  // Weight
        #expect(state.profile.focus == .weight)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Weight history") })
        #expect(lines.contains { $0.contains("72.4 kg  server") }, "\(lines.joined(separator: "\n"))")
        // Up to Height, then to Language (no measurement): the height's history stays.
        press([.up], &state)
        #expect(screen(state).lines.contains { $0.contains("Height history") })
        press([.up], &state)
        #expect(state.profile.focus == .language)
        #expect(screen(state).lines.contains { $0.contains("Height history") })
    }

    @Test func aWeightIsTypedInTheUnitsShownAndSavedAsANewReading() {
        var state = withWeights()
        state.profile.focus = .weight
        press([.enter, .control("u")] + type("160 lb") + [.enter], &state)
        #expect(state.profile.drafts[.weight] == "160 lb")
        #expect(press([.control("s")], &state) == [.save(.measurement(.weight, 72.57))])
        _ = update(&state, .saved(.measurement(.weight), error: nil))
        #expect(state.profile.drafts[.weight] == nil)
        #expect(screen(state).lines.contains { $0.contains("Weight saved.") })
    }

    @Test func aBodyFatOutOfRangeKeepsTheEditOpenWithTheRule() {
        var state = withWeights()
        state.profile.focus = .bodyFat
        press([.enter, .control("u")] + type("80") + [.enter], &state)
        #expect(state.profile.editing?.field == .bodyFat)
        #expect(state.profile.errors[.bodyFat]?.contains("Body fat must be between 1 and 75 %") == true)
        #expect(press([.control("s")], &state) == [])
    }

    /// The same bad weight gets the same sentence here, in plain mode and from `weight set`
    /// (`OneWayInCLITests`): the core's rule, said once.
    @Test(arguments: ["900 kg", "abc"])
    func aBadWeightIsRefusedWithTheCoresSentence(typed: String) throws {
        let refusal = try #require(Self.coreRefusal(of: typed))
        var state = withWeights()
        state.profile.focus = .weight
        press([.enter, .control("u")] + type(typed) + [.enter], &state)
        #expect(state.profile.editing?.field == .weight)
        #expect(state.profile.errors[.weight] == refusal)
        #expect(press([.control("s")], &state) == [])
    }

    /// What the core says of `typed` as a weight in metric units.
    static func coreRefusal(of typed: String) -> String? {
        do {
            _ = try Metric.weight.parse(typed, unitSystem: .metric)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aWeightEntryIsRemovedAndCorrectedFromItsOwnList() {
        var state = withWeights()
        state.profile.focus = .weight
        press([.character("l")], &state)
        #expect(state.historySelection == 0)
        press([.character("d")], &state)
        #expect(screen(state).lines.contains { $0.contains("Remove this weight?") })
        #expect(press([.character("y")], &state) == [.deleteEntry(.weight, id: "w2")])
        press([.character("e"), .control("u")] + type("72.0") + [.enter], &state)
        #expect(state.overlay == nil)
    }

    @Test func aWeightWaitingToBeSentOrRefusedShowsUnderThePhysicalBox() {
        var state = withWeights()
        var account = weightsAccount()
        account.record(.weight, 71.9, measuredAt: fixedNow, source: .manual)
        state.account = AccountView(email: "jane@example.com", server: "s", state: account)
        #expect(screen(state).lines.contains { $0.contains("○ Saved here, not on the server yet") })

        let post = account.outbox.progress[0]
        account.begin(.logProgress(id: post.id, post.entry, checkServerFirst: false), owner: UUID(), now: fixedNow)
        account.finish(
            .logProgress(id: post.id, post.entry, checkServerFirst: false),
            outcome: .rejected("Weight is implausible"), now: fixedNow, random: 0)
        state.account = AccountView(email: "jane@example.com", server: "s", state: account)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("! Rejected by the server: Weight is") })
        #expect(lines.contains { $0.contains("implausible") })
        #expect(account.pending.metadataStatus == .settled)
    }
}
