import FitIQCore
import FitIQLocalization
import FitIQTUI
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The loop on the thread that owns the terminal and the state: it draws after something happened,
/// and otherwise sleeps in the terminal until a key, a resize, a signal, a task's result (posting to
/// the inbox wakes it) or the next whole second (the title bar's clock) comes.
///
/// It never waits with results queued; the terminal's own effects run here, on its thread, and the
/// others go to `perform`.
struct TerminalLoop {
    /// Where the tasks' results wait; its posts wake the terminal while this loop runs.
    let inbox: EventInbox
    /// The current instant: the title bar's time and when to tick next.
    let now: @Sendable () -> Date
    /// Edits text in the user's editor, with the terminal given back.
    let externalEditor: @Sendable (String) -> ExternalEditOutcome

    /// Drives `screen` from `initial` until the user quits; `perform` starts the use cases' effects.
    /// `drawn` is called once, after the first frame is on the screen.
    func run(
        on screen: any TerminalScreen, state initial: AppState, drawn: () -> Void = {}, perform: (Effect) -> Void
    ) {
        var state = initial
        var isFirstFrame = true
        var buffer = CellBuffer(width: screen.size.width, height: screen.size.height)
        inbox.wake(with: screen.waker)
        defer { inbox.wake(with: nil) }
        var second = Self.wholeSeconds(now())
        var dirty = true
        while !state.shouldQuit {
            // Render only after something happened: an idle editor costs next to nothing.
            if dirty {
                if buffer.width != state.size.width || buffer.height != state.size.height {
                    buffer = CellBuffer(width: state.size.width, height: state.size.height)
                }
                let cursor = render(state, into: &buffer)
                screen.draw(buffer, cursor: cursor)
                dirty = false
                if isFirstFrame {
                    isFirstFrame = false
                    drawn()
                }
            }
            var events = inbox.take()
            // With results queued, only a look at the terminal (keys are not left behind a stream of
            // results); else a sleep until something comes or the clock's second turns.
            let timeout = events.isEmpty ? Self.milliseconds(toNextSecondAfter: now()) : 0
            if let input = screen.nextInput(timeout: timeout) { events.append(.input(input)) }
            events += inbox.take()
            let current = now()
            if Self.wholeSeconds(current) != second {
                second = Self.wholeSeconds(current)
                events.append(.tick(current))
            }
            for event in events { handle(event, in: &state, on: screen, perform: perform) }
            if !events.isEmpty { dirty = true }
        }
    }

    /// How long from `date` to the next whole second, in milliseconds (1 to 1000).
    static func milliseconds(toNextSecondAfter date: Date) -> Int {
        let time = date.timeIntervalSince1970
        let left = (time.rounded(.down) + 1 - time) * 1000
        return min(1000, max(1, Int(left.rounded(.up))))
    }

    private static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    private func handle(
        _ event: Event, in state: inout AppState, on screen: any TerminalScreen, perform: (Effect) -> Void
    ) {
        let effects = update(&state, event)
        // The effects speak the language of the state the event left: an effect's task inherits it and
        // says its sentences in it, and so does the external editor's outcome.
        speaking(state.localizer) {
            for effect in effects {
                switch effect {
                case .repaint:
                    screen.invalidate()
                case .suspend:
                    screen.suspend()
                    screen.invalidate()
                case .editExternally(let field, let text):
                    var outcome = ExternalEditOutcome.failed(tr("The editor did not run."))
                    screen.runOutside { outcome = externalEditor(text) }
                    inbox.post(.externalEdit(field, outcome))
                default:
                    perform(effect)
                }
            }
        }
    }
}
