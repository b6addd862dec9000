import Testing

@testable import NcursesTerminal

/// The pipe that ends the key loop's wait, without a terminal: -1 stands for an input that never
/// arrives (poll() leaves negative descriptors out).
struct WakePipeTests {
    @Test func aWakeBeforeTheWaitEndsItAtOnce() {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }
        #expect(pipe.readEnd >= 0)

        pipe.wake()
        // The long timeout is a hang guard: a wake that did not reach the pipe fails the next line.
        #expect(pipe.wait(forInputOn: -1, milliseconds: 60_000))
    }

    @Test func aWakeIsUsedUpByTheWaitItEnds() {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }

        pipe.wake()
        pipe.wake()
        #expect(pipe.wait(forInputOn: -1, milliseconds: 60_000))
        #expect(!pipe.wait(forInputOn: -1, milliseconds: 0))
    }

    @Test func aWakeFromAnotherThreadEndsTheWait() async {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }

        async let woken = Task.detached { pipe.wait(forInputOn: -1, milliseconds: 60_000) }.value
        pipe.wake()
        #expect(await woken)
    }

    @Test func wakingAClosedPipeDoesNothing() {
        let pipe = WakePipe()
        pipe.closeEnds()
        pipe.wake()
    }
}
