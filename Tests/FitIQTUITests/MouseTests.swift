import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQTUI

/// The mouse, on the rendered screen: a click lands on what is drawn where it lands (found again by
/// reading the screen, never by a hard-coded place), and the wheel is a key of the place shown.
struct MouseTests {
    /// The first cell of the first row whose text contains `text`.
    static func cell(of text: String, in state: AppState, after row: Int = 0) -> (x: Int, y: Int)? {
        let lines = screen(state).lines
        for (y, line) in lines.enumerated() where y >= row {
            guard let range = line.range(of: text) else { continue }
            return (DisplayWidth.of(String(line[..<range.lowerBound])), y)
        }
        return nil
    }

    @discardableResult
    static func click(_ text: String, _ state: inout AppState, after row: Int = 0) throws -> [Effect] {
        let at = try #require(cell(of: text, in: state, after: row), "\(text) is on the screen")
        return update(&state, .input(.mouse(MouseReport(.click, x: at.x + 1, y: at.y))))
    }

    @Test func aClickOnALabelOrAValueFocusesItsFieldAndASecondClickEdits() throws {
        var state = profileState(width: 100, height: 30)
        #expect(state.profile.focus == .name)
        try Self.click("Weight", &state)
        #expect(state.profile.focus == .weight)
        #expect(state.profile.editing == nil)
        try Self.click("Trail runner", &state)
        #expect(state.profile.focus == .bio)
        #expect(state.profile.editing == nil)
        try Self.click("Trail runner", &state)
        #expect(state.profile.editing?.field == .bio, "a click on the focused field edits it, as Enter does")
        // While a field is being edited, a click elsewhere does nothing: the edit is not lost or confirmed.
        try Self.click("Height", &state)
        #expect(state.profile.editing?.field == .bio)
        #expect(state.profile.focus == .bio)
    }

    @Test func aClickOnAHistoryEntryChoosesItAndTheWheelScrollsTheList() throws {
        var state = profileState(width: 100, height: 30)
        let entries = try #require(state.account?.history(of: state.historyMetric).entries)
        let third = entries[2]
        let day = CalendarDate(containing: third.loggedAt, in: .utc).description
        try Self.click(day, &state)
        #expect(state.historySelection == 2)
        _ = update(&state, .input(.mouse(MouseReport(.wheelDown, x: 1, y: 1))))
        _ = update(&state, .input(.mouse(MouseReport(.wheelDown, x: 1, y: 1))))
        #expect(state.historySelection == 4)
        _ = update(&state, .input(.mouse(MouseReport(.wheelUp, x: 1, y: 1))))
        #expect(state.historySelection == 3)
        // The wheel over the form goes into the list: the first entry.
        var form = profileState(width: 100, height: 30)
        _ = update(&form, .input(.mouse(MouseReport(.wheelDown, x: 3, y: 3))))
        #expect(form.historySelection == 0)
    }

    @Test func aClickOnAFooterHintDoesWhatItsKeyDoes() throws {
        var state = profileState(width: 100, height: 30)
        let footer = state.size.height - 1
        try Self.click("? help", &state, after: footer)
        #expect(state.overlay == .help)
        var progress = profileState(width: 100, height: 30)
        let effects = try Self.click("p progress", &progress, after: footer)
        #expect(progress.screen == .progress)
        #expect(!effects.isEmpty)
        // On the progress screen, the range's and the metric's hints change them.
        let range = progress.progress.range
        try Self.click("←/→ range", &progress, after: footer)
        #expect(progress.progress.range != range)
        let series = progress.progress.series
        try Self.click("Tab metric", &progress, after: footer)
        #expect(progress.progress.series != series)
        // From the history list, the form's hints act too.
        var list = profileState(width: 100, height: 30)
        list.historySelection = 1
        try Self.click("? help", &list, after: footer)
        #expect(list.overlay == .help)
    }

    @Test func aClickOutsideABoxClosesItAndOneInsideDoesNot() throws {
        var state = profileState(width: 100, height: 30)
        _ = update(&state, .input(.key(.character("?"))))
        #expect(state.overlay == .help)
        try Self.click("─ Help", &state)
        #expect(state.overlay == .help, "a click on the box itself keeps it")
        _ = update(&state, .input(.mouse(MouseReport(.wheelDown, x: 50, y: 15))))
        #expect(state.helpScroll == 1)
        #expect(state.overlay == .help, "the wheel scrolls the help and never closes it")
        _ = update(&state, .input(.mouse(MouseReport(.click, x: 0, y: 1))))
        #expect(state.overlay == nil)
        // A question is not answered by the wheel; a click outside answers it as Esc does.
        var removal = profileState(width: 100, height: 30)
        removal.historySelection = 0
        _ = update(&removal, .input(.key(.character("d"))))
        let prompt = try #require(removal.overlay)
        _ = update(&removal, .input(.mouse(MouseReport(.wheelDown, x: 50, y: 15))))
        #expect(removal.overlay == prompt)
        let effects = update(&removal, .input(.mouse(MouseReport(.click, x: 0, y: 1))))
        #expect(removal.overlay == nil)
        #expect(effects.isEmpty, "kept, not removed")
    }

    @Test func aFrameDrawnAgainIntoTheSameBufferHoldsOnlyItsOwnTargets() {
        // The editor's loop draws every frame into one buffer: an afternoon of frames must not pile up.
        let state = profileState(width: 100, height: 30)
        var buffer = CellBuffer(width: 100, height: 30)
        _ = render(state, into: &buffer)
        let once = buffer.targets.count
        #expect(once > 10)
        for _ in 0..<50 { _ = render(state, into: &buffer) }
        #expect(buffer.targets.count == once)
    }

    @Test func theMouseNeverTypes() throws {
        var state = profileState(width: 100, height: 30)
        _ = update(&state, .input(.key(.enter)))
        let before = state.profile
        _ = update(&state, .input(.mouse(MouseReport(.wheelDown, x: 3, y: 3))))
        _ = update(&state, .input(.mouse(MouseReport(.click, x: 99, y: 0))))
        #expect(state.profile == before)
    }
}
