import FitIQCore
import FitIQLocalization
import Foundation
import Testing

@testable import FitIQTUI

/// A metric's entries on the Today screen (`h`, `:history water`), on the rendered buffer: a day's amount
/// under each day's total with time and note, removed and corrected through the boxes the profile's list
/// uses, whose answers are the one way in's removal and correction.
struct TodayHistoryTests {
    static let today = CalendarDate(containing: fixedNow, in: .utc)

    /// The Today screen of ``TodayScreenTests`` over an account with water drunk today (two glasses)
    /// and yesterday, and a night's sleep.
    static func state(width: Int = 80, height: Int = 24) -> AppState {
        var state = TodayScreenTests.state(width: width, height: height)
        var account = fixtureAccount()
        let at = { (days: Int, hour: Int, minute: Int) in
            today.adding(days: -days).instant(atHour: hour, in: .utc).addingTimeInterval(Double(minute) * 60)
        }
        account.history.entries += [
            ProgressEntry(
                serverId: "w1", type: Metric.water.type, quantity: 0.25, loggedAt: at(0, 8, 5), notes: "tea",
                source: .manual),
            ProgressEntry(
                serverId: "w2", type: Metric.water.type, quantity: 0.5, loggedAt: at(0, 12, 30), source: .manual),
            ProgressEntry(serverId: "w3", type: Metric.water.type, quantity: 2, loggedAt: at(1, 9, 0), source: .server),
            ProgressEntry(
                serverId: "s1", type: Metric.sleep.type, quantity: 7.5, loggedAt: at(0, 7, 0), source: .health),
        ]
        show(account, in: &state)
        return state
    }

    @Test func hListsTheChosenDailyAmountByDayWithTimeAndNote() throws {
        var state = Self.state()
        // Weight, steps, then water.
        press([.down, .down, .character("h")], &state)
        #expect(state.today.history == EntryChoice(.water))
        let lines = screen(state).lines
        let text = lines.joined(separator: "\n")
        #expect(lines[1].contains("Water history (↑↓ choose, d remove, e correct)"), "\(text)")
        // Inside the box: the choice mark, then the day's line or an entry under it.
        let rows = lines[2...6].map { String($0.dropFirst().dropLast()).replacing(#/ +$/#, with: "") }
        #expect(
            rows == [
                " 2026-11-18  0.75 l", "›  12:30  0.5 l  manual", "   08:05  0.25 l  manual  tea", " 2026-11-17  2 l",
                "   09:00  2 l  server",
            ], "\(text)")
        #expect(lines.last?.contains("d remove") == true && lines.last?.contains("Esc back") == true, "\(text)")
    }

    @Test func dRemovesAndECorrectsTheChosenEntryThroughTheOneWayIn() throws {
        var state = Self.state()
        press([.down, .down, .character("h"), .down], &state)
        // The second entry, the tea of 08:05.
        press([.character("d")], &state)
        #expect(state.overlay == .deleteEntryPrompt(.water, id: "w1", summary: "0.25 l of 2026-11-18"))
        #expect(screen(state).lines.contains { $0.contains("Remove this water?") })
        #expect(press([.character("y")], &state) == [.deleteEntry(.water, id: "w1")])
        #expect(state.overlay == nil && state.screen == .today)

        press([.down, .character("e")], &state)
        guard case .correctEntry(.water, id: "w3", _, let value, nil)? = state.overlay else {
            Issue.record("\(String(describing: state.overlay))")
            return
        }
        #expect(value.text == "2 l")
        press(Array(repeating: .backspace, count: 3) + type("1500 ml"), &state)
        #expect(press([.enter], &state) == [.correctEntry(.water, id: "w3", value: 1.5)])
        // u undoes it, as the message says; Esc leaves the list for the rows.
        #expect(press([.character("u")], &state) == [.undo])
        press([.escape], &state)
        #expect(state.today.history == nil && state.screen == .today)
        #expect(screen(state).lines.contains { $0.contains("›Water") })
    }

    @Test func theChoiceStaysInRangeWhenEntriesGoAway() throws {
        var state = Self.state()
        press([.down, .down, .character("h"), .down, .down], &state)
        #expect(state.today.history?.selection == 2)
        // The removal arrives: yesterday's entry is gone.
        var account = fixtureAccount()
        account.history.entries += [
            ProgressEntry(
                serverId: "w2", type: Metric.water.type, quantity: 0.5,
                loggedAt: Self.today.instant(atHour: 12, in: .utc), source: .manual)
        ]
        show(account, in: &state)
        #expect(screen(state).lines.contains { $0.contains("›  12:00  0.5 l") })
        press([.character("d")], &state)
        #expect(state.overlay == .deleteEntryPrompt(.water, id: "w2", summary: "0.5 l of 2026-11-18"))
    }

    @Test func aNightAndAReadingListTheirEntriesAndAnEmptyHistorySaysSo() throws {
        var state = Self.state()
        press([.character(":")] + type("history sleep") + [.enter], &state)
        #expect(state.screen == .today && state.today.history == EntryChoice(.sleep))
        var text = screen(state).lines.joined(separator: "\n")
        #expect(text.contains("Sleep history") && text.contains("2026-11-18  7.5 h"), "\(text)")
        #expect(text.contains("›  07:00  7.5 h  health"), "\(text)")
        press([.character(":")] + type("history mood") + [.enter], &state)
        text = screen(state).lines.joined(separator: "\n")
        #expect(text.contains("No mood entries yet."), "\(text)")
        #expect(press([.character("d"), .character("e")], &state).isEmpty && state.overlay == nil)
        // The body's measurements keep their list on the profile.
        press([.character(":")] + type("history weight") + [.enter], &state)
        #expect(state.screen == .profile && state.historyMetric == .weight)
    }

    @Test func atFortyByTwelveTheChosenEntryStaysInView() throws {
        var state = Self.state(width: 40, height: 12)
        press([.down, .down, .character("h"), .down, .down, .down, .down], &state)
        let lines = screen(state).lines
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 40 })
        #expect(lines.contains { $0.contains("›  09:00  2 l  server") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func aClickChoosesAnEntry() throws {
        var state = Self.state()
        press([.down, .down, .character("h")], &state)
        // Row 5 is the tea of 08:05 (the day's line, then 12:30, then it).
        _ = update(&state, .input(.mouse(MouseReport(.click, x: 10, y: 4))))
        #expect(state.today.history?.selection == 1)
    }
}
