import FitIQCore
import FitIQTUI
import Foundation
import Synchronization
import Testing

@testable import FitIQEditor

/// The terminal loop alone, with the fake terminal: what wakes it, and how long it sleeps.
@Suite(.timeLimit(.minutes(1)))
struct TerminalLoopTests {
    @Test func aPostedResultIsShownWithoutAKeyOrATimeout() async throws {
        let run = LoopRun.start()
        try await run.terminal.frame("the sign-in screen") { $0.shows("Sign in to FitIQ") }

        // A task's result, as a failed sign-in posts it; the fake terminal's timeouts never expire,
        // so only the post can end the loop's wait.
        run.inbox.post(.signInFailed("The server said no."))
        try await run.terminal.frame("the result") { $0.shows("The server said no.") }

        #expect(run.terminal.expiredTimeouts == 0)
        #expect(run.terminal.wakes >= 1)
        try await run.quit()
    }

    @Test func resultsQueuedBeforeTheLoopStartsAreShownAtOnce() async throws {
        let inbox = EventInbox()
        inbox.post(.signInFailed("Posted before the loop ran."))
        let run = LoopRun.start(inbox: inbox)

        try await run.terminal.frame("the early result") { $0.shows("Posted before the loop ran.") }
        #expect(run.terminal.expiredTimeouts == 0)
        try await run.quit()
    }

    @Test func itSleepsUntilTheNextWholeSecondForTheClock() async throws {
        let now = Mutex(Date(timeIntervalSince1970: 1_790_000_000.25))
        let run = LoopRun.start(now: { now.withLock { $0 } })
        try await run.terminal.until("the first wait") { !run.terminal.timeouts.isEmpty }
        #expect(run.terminal.timeouts == [750])

        // The second turns while the loop waits; the event that wakes it comes with a tick, and the
        // wait after it is to the next second again.
        now.withLock { $0 = Date(timeIntervalSince1970: 1_790_000_001.9) }
        run.inbox.post(.signInFailed("Woken."))
        try await run.terminal.until("the wait after the wake-up") { run.terminal.timeouts.count >= 2 }
        #expect(run.terminal.timeouts == [750, 100])
        #expect(run.terminal.expiredTimeouts == 0)
        try await run.quit()
    }

    @Test func theWaitIsToTheNextSecondAndNeverZero() {
        #expect(TerminalLoop.milliseconds(toNextSecondAfter: Date(timeIntervalSince1970: 10)) == 1000)
        #expect(TerminalLoop.milliseconds(toNextSecondAfter: Date(timeIntervalSince1970: 10.5)) == 500)
        #expect(TerminalLoop.milliseconds(toNextSecondAfter: Date(timeIntervalSince1970: 10.9999)) == 1)
    }

    @Test func keysOfTheTestWakeTheLoop() async throws {
        let run = LoopRun.start()
        try await run.terminal.frame("the sign-in screen") { $0.shows("Sign in to FitIQ") }

        run.terminal.type("jane@example.com")
        try await run.terminal.frame("the typed email") { $0.shows("jane@example.com") }
        #expect(run.terminal.expiredTimeouts == 0)
        try await run.quit()
    }

    @Test func theBackgroundWorkStartsOnceTheFirstFrameIsDrawn() async throws {
        // The frames drawn when the loop said it had drawn, one entry per call.
        let calls = Mutex<[Int]>([])
        let run = LoopRun.start(drawn: { terminal in calls.withLock { $0.append(terminal.frameCount) } })
        try await run.terminal.frame("the sign-in screen") { $0.shows("Sign in to FitIQ") }
        run.terminal.type("jane@example.com")
        try await run.terminal.frame("the typed email") { $0.shows("jane@example.com") }
        try await run.quit()

        #expect(run.terminal.frameCount > 1)
        #expect(calls.withLock { $0 } == [1])
    }
}

/// A terminal loop on a thread of its own, on the sign-in screen, recording the effects it hands on.
struct LoopRun: Sendable {
    let inbox: EventInbox
    let terminal: FakeTerminal
    private let ended: AsyncStream<Void>

    static func start(
        inbox: EventInbox = EventInbox(),
        now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) },
        drawn: @escaping @Sendable (FakeTerminal) -> Void = { _ in }
    ) -> LoopRun {
        let terminal = FakeTerminal()
        let (ended, finished) = AsyncStream.makeStream(of: Void.self)
        let loop = TerminalLoop(inbox: inbox, now: now, externalEditor: { _ in .failed("No editor here.") })
        let state = AppState(screen: .signIn, size: terminal.size, now: now(), timeZone: .utc, server: "test")
        let thread = Thread {
            loop.run(on: terminal, state: state, drawn: { drawn(terminal) }) { _ in }
            finished.finish()
        }
        thread.start()
        return LoopRun(inbox: inbox, terminal: terminal, ended: ended)
    }

    /// Presses Ctrl-C and waits for the loop to end.
    func quit() async throws {
        terminal.send(.key(.control("c")))
        try await withHangGuard("the loop's end") { [ended] in
            for await _ in ended {}
            return true
        }
    }
}
