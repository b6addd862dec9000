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

    /// Eight glasses of water today, 0.25 l each, one an hour from 08:00 (`g1`) to 15:00 (`g8`), newest
    /// first.
    static let glasses = (1...8).reversed().map { index in
        ProgressEntry(
            serverId: "g\(index)", type: Metric.water.type, quantity: 0.25,
            loggedAt: today.instant(atHour: 7 + index, in: .utc), source: .manual)
    }

    @Test func theListShowsTheEntriesReadForItBeyondTheAccountsLatest() throws {
        // Given an account whose view keeps the day's four latest glasses, as a summary does.
        var state = TodayScreenTests.state(width: 80, height: 24)
        var account = fixtureAccount()
        account.history.entries += Self.glasses.prefix(HistorySummary.otherLatestLimit)
        show(account, in: &state)
        // When h opens water's list, its entries are asked for; the latest four show meanwhile.
        #expect(press([.down, .down, .character("h")], &state) == [.loadEntries(.water)])
        var rows = screen(state).lines.map { $0.replacing(#/ +│?$/#, with: "") }
        #expect(rows.contains("│ 2026-11-18  1 l") && rows.contains("│›  15:00  0.25 l  manual"), "\(rows)")
        #expect(!rows.contains { $0.contains("11:00") }, "\(rows)")

        // Then all eight, with the older entries not read said under them.
        _ = update(&state, .entriesLoaded(LatestEntries(metric: .water, entries: Self.glasses, older: 3)))
        rows = screen(state).lines.map { $0.replacing(#/ +│?$/#, with: "") }
        let listed = (8...15).reversed().map { "│   \($0 < 10 ? "0" : "")\($0):00  0.25 l  manual" }
        #expect(Array(rows[2...10]) == ["│ 2026-11-18  2 l", "│›" + listed[0].dropFirst(2)] + listed.dropFirst())
        #expect(rows[11] == "│ 3 older entries are not listed: fitiq-tui history water lists them.", "\(rows)")

        // The seventh (09:00) is removed through the one way in.
        press(Array(repeating: .down, count: 6) + [.character("d")], &state)
        #expect(state.overlay == .deleteEntryPrompt(.water, id: "g2", summary: "0.25 l of 2026-11-18"))
        #expect(press([.character("y")], &state) == [.deleteEntry(.water, id: "g2")])
        // The removal is saved (the account's latest four stay): the rows and the entries are read again,
        // and the list read before shows until then.
        let view = AccountView(email: "jane@example.com", server: "https://api.fitiq.test", state: account)
        #expect(update(&state, .accountChanged(view)) == [.loadToday, .loadEntries(.water)])
        #expect(screen(state).lines.contains { $0.contains("›  09:00  0.25 l") })
        let left = Self.glasses.filter { $0.serverId != "g2" }
        _ = update(&state, .entriesLoaded(LatestEntries(metric: .water, entries: left, older: 3)))
        rows = screen(state).lines.map { $0.replacing(#/ +│?$/#, with: "") }
        #expect(rows[2] == "│ 2026-11-18  1.75 l" && rows[9] == "│›  08:00  0.25 l  manual", "\(rows)")

        // A read that ends after its list was left shows nowhere.
        press([.escape], &state)
        _ = update(&state, .entriesLoaded(LatestEntries(metric: .water, entries: left, older: 0)))
        #expect(state.today.history == nil)
    }
}
