import FitIQCore
import Foundation
import Testing

@testable import FitIQTUI

/// Every screen at the sizes people use: a phone's or a split pane's 40×12 and 60×20, the classic
/// 80×24, a large 120×40. Boxes stack below 80 columns, the chart gives way first, hints fit, messages
/// wrap, help and sync details scroll.
struct LayoutTests {
    static let sizes = [(40, 12), (60, 20), (80, 24), (120, 40)]

    /// The screens, each as a function from a size to the state showing it.
    enum Screen: String, CaseIterable, CustomTestStringConvertible {
        case profile, editingBio, syncDetails, help, quitPrompt, importPrompt, languagePicker, signIn, register, today

        var testDescription: String { rawValue }

        func state(width: Int, height: Int) -> AppState {
            var state = profileState(width: width, height: height)
            state.canImportHealth = true
            switch self {
            case .profile: break
            case .editingBio: press([.tab, .enter], &state)
            case .syncDetails: press([.character("h")], &state)
            case .help: press([.character("?")], &state)
            case .quitPrompt: press([.enter] + type("x") + [.enter, .character("q")], &state)
            case .importPrompt: press([.character("i")], &state)
            case .languagePicker: press([.tab, .tab, .tab, .enter], &state)
            case .today:
                press([.character("t")], &state)
                _ = update(&state, .todayLoaded(TodayScreenTests.metrics()))
            case .signIn, .register:
                state = AppState(
                    screen: .signIn, size: (width, height), now: fixedNow, timeZone: .utc,
                    server: "https://api.fitiq.test")
                if self == .register { press([.control("r")], &state) }
            }
            return state
        }

        /// Text that must be on the screen whole, at every size.
        var shows: [String] {
            switch self {
            case .profile: ["›Name", "Jane Doe", "Profile"]
            case .editingBio: ["›Bio", "Trail runner", "Enter confirm"]
            case .syncDetails: ["Profile"]
            case .help: ["Help", "edit the field"]
            case .quitPrompt: ["Unsaved edits", "y  quit and discard them"]
            case .importPrompt: ["Import health data", "The export to import"]
            case .languagePicker: ["Language", "English"]
            case .today: ["Today, 2026-11-18", "›Weight", "Steps", "Water"]
            case .signIn: ["Sign in to FitIQ", "Email", "Password"]
            case .register: ["Create a FitIQ account", "Email", "Password", "Name", "Date of birth"]
            }
        }
    }

    @Test(arguments: Screen.allCases, sizes)
    func everyScreenFitsEverySize(screen kind: Screen, size: (Int, Int)) {
        let state = kind.state(width: size.0, height: size.1)
        let lines = screen(state).lines
        #expect(lines.count == size.1)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == size.0 })
        #expect(lines[0].hasPrefix(" fitiq-tui"))
        for text in kind.shows {
            #expect(
                lines.contains { $0.contains(text) }, "\(text) missing at \(size):\n\(lines.joined(separator: "\n"))")
        }
        if state.screen == .profile && state.overlay == nil {
            #expect(lines[size.1 - 1].contains("? help"), "the footer always offers help")
        }
        #expect(!lines.contains { $0.contains("Terminal too small") })
    }

    @Test func belowEightyColumnsTheBoxesStack() throws {
        let narrow = screen(profileState(width: 60, height: 20)).lines
        let profileRow = try #require(narrow.firstIndex { $0.contains("┌─ Profile") })
        let physicalRow = try #require(narrow.firstIndex { $0.contains("┌─ Physical") })
        #expect(physicalRow > profileRow)
        #expect(narrow[physicalRow].hasPrefix("┌─ Physical"))
        let wide = screen(profileState(width: 80, height: 24)).lines
        #expect(wide[1].contains("┌─ Profile") && wide[1].contains("┌─ Physical"))
    }

    @Test func whenHeightRunsShortTheChartGoesFirstThenTheList() {
        // 80×24: chart and list; 60×20: the list alone; 40×12: the boxes take every row.
        let large = screen(profileState(width: 80, height: 24)).lines
        #expect(large.contains { $0.contains(" cm ┤") } && large.contains { $0.contains("2026-11-18  170.0 cm") })
        let medium = screen(profileState(width: 60, height: 20)).lines
        #expect(!medium.contains { $0.contains(" cm ┤") })
        #expect(medium.contains { $0.contains("2026-11-18  170.0 cm") })
        let small = screen(profileState(width: 40, height: 12)).lines
        #expect(!small.contains { $0.contains("Height history") })
    }

    @Test func theFocusedFieldStaysInViewOnAShortScreen() {
        var state = profileState(width: 40, height: 12)
        press([.backTab], &state)  // from Name back to biological sex, last of the Physical box
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("›Biological sex") })
    }

    @Test func longMessagesWrapInsteadOfBeingCut() {
        var state = profileState(width: 60, height: 20)
        let message =
            "The server is unavailable (HTTP 503): the maintenance window runs until 14:00 UTC; your changes "
            + "are kept here and sent when it is back."
        state.message = (message, true)
        let lines = screen(state).lines
        let shown = lines.suffix(4).dropLast().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains(message), "\(lines.suffix(4))")
    }

    @Test func helpScrollsOnASmallScreen() {
        var state = profileState(width: 40, height: 12)
        press([.character("?")], &state)
        let first = screen(state).lines
        #expect(first.contains { $0.contains("Help 1–") })
        press([.pageDown], &state)
        let next = screen(state).lines
        #expect(next != first)
        #expect(state.overlay == .help)
        #expect(next.contains { $0.contains("Help 9–") })
    }

    @Test func syncDetailsScrollWhenLongerThanTheBox() {
        var state = profileState(width: 60, height: 24)
        var account = fixtureAccount()
        account.outbox.progress = (0..<12).map { index in
            ProgressPost(
                id: UUID(), entry: NewProgressEntry(type: "height", quantity: 170 + Double(index), loggedAt: fixedNow),
                changeId: UUID(), sendAttempted: false, delivery: Delivery())
        }
        show(account, in: &state)
        press([.character("h")], &state)
        let first = screen(state).lines
        #expect(first.contains { $0.contains("Sync details (1–") })
        press([.pageDown], &state)
        #expect(screen(state).lines != first)
    }

    /// An import queues thousands of posts: the view lists the first ones, counts them all (a refusal
    /// past the list too), and the sync details say how many more there are.
    @Test func thousandsOfPendingPostsAreCountedAndTheFirstOnesListed() throws {
        var state = profileState(width: 80, height: 24)
        var account = fixtureAccount()
        account.outbox.progress = (0..<3_000).map { index in
            var delivery = Delivery()
            if index == 2_999 { delivery.rejection = "steps: too many" }
            return ProgressPost(
                id: UUID(), entry: NewProgressEntry(type: "steps", quantity: Double(index), loggedAt: fixedNow),
                changeId: UUID(), sendAttempted: false, delivery: delivery)
        }
        show(account, in: &state)
        let view = try #require(state.account)
        #expect(view.pendingChanges.count == AccountView.listedChanges)
        #expect(view.unlistedChanges == 3_000 - AccountView.listedChanges)
        #expect(view.pendingCount == 2_999 && view.rejectedCount == 1)
        #expect(screen(state).lines[0].contains("1 change rejected"))
        let lines = syncDetailLines(state, account: view, width: 78).map(\.text)
        #expect(lines.filter { $0.hasPrefix("○ pending") }.count == AccountView.listedChanges)
        #expect(lines.last == "…and 2800 more changes", "\(lines.suffix(2))")
    }

    @Test func resizingSmallAndBackKeepsEveryScreensContent() {
        for kind in Screen.allCases {
            var state = kind.state(width: 120, height: 40)
            if state.screen == .profile && state.overlay == nil {
                press([.tab, .enter] + type(" and hills") + [.enter, .tab, .enter] + type("5'11\""), &state)
            }
            let before = screen(state)
            let form = state.profile
            _ = update(&state, .input(.resize(width: 40, height: 12)))
            _ = screen(state)
            _ = update(&state, .input(.resize(width: 60, height: 20)))
            _ = screen(state)
            _ = update(&state, .input(.resize(width: 120, height: 40)))
            #expect(screen(state) == before, "\(kind) changed after resizing")
            #expect(state.profile == form)
        }
    }
}

/// A box drawn over the screen keeps a blank margin of one cell beside it: no column of the screen below
/// shows squeezed between the screen's border and the box's (the help box at 100×30 showed a `7` of the
/// chart's axis on every other row).
struct OverlayClearingTests {
    @Test(
        arguments: [LayoutTests.Screen.help, .quitPrompt, .importPrompt], [(100, 30), (80, 24), (120, 40), (60, 20)])
    func nothingOfTheScreenShowsBesideABox(kind: LayoutTests.Screen, size: (Int, Int)) throws {
        let buffer = screen(kind.state(width: size.0, height: size.1))
        let lines = buffer.lines
        let title = ["┌─ Help", "┌─ Unsaved", "┌─ Import"].first { title in lines.contains { $0.contains(title) } }
        let top = try #require(lines.firstIndex { $0.contains(title ?? "?") })
        let row = lines[top]
        // Columns, not characters: a wide character fills two.
        let left = DisplayWidth.of(String(row[..<(try #require(row.range(of: title ?? "?")).lowerBound)]))
        let right = try #require((left + 1..<size.0).first { buffer[$0, top].character == "┐" })
        let bottom = try #require((top + 1..<size.1).first { buffer[left, $0].character == "└" })
        for row in top...bottom {
            for column in [left - 1, right + 1] where column >= 1 && column <= size.0 - 2 {
                #expect(buffer[column, row].character == " ", "row \(row), column \(column) at \(size): \(lines[row])")
            }
        }
    }
}
