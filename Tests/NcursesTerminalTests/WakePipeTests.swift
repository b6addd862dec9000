import Testing

@testable import NcursesTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The pipe that ends the key loop's wait, without a terminal: -1 stands for an input that never
/// arrives (poll() leaves negative descriptors out).
struct WakePipeTests {
    @Test func aWakeBeforeTheWaitEndsItAtOnce() {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }
        #expect(pipe.readEnd >= 0)

        pipe.wake()
        // The long timeout is a hang guard: a wake that did not reach the pipe fails the next line.
        #expect(pipe.wait(forInputOn: -1, milliseconds: 60_000) == .woken)
    }

    @Test func aWakeIsUsedUpByTheWaitItEnds() {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }

        pipe.wake()
        pipe.wake()
        #expect(pipe.wait(forInputOn: -1, milliseconds: 60_000) == .woken)
        #expect(pipe.wait(forInputOn: -1, milliseconds: 0) == .timedOut)
    }

    @Test func aWakeFromAnotherThreadEndsTheWait() async {
        let pipe = WakePipe()
        defer { pipe.closeEnds() }

        async let woken = Task.detached { pipe.wait(forInputOn: -1, milliseconds: 60_000) }.value
        pipe.wake()
        #expect(await woken == .woken)
    }

    /// An input whose other end closed (a terminal whose connection dropped) is told apart from input,
    /// with what was sent before it still there to read; else the key loop would wake at once, forever.
    @Test func anInputWhoseOtherEndClosedHungUp() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let wakePipe = WakePipe()
        defer { wakePipe.closeEnds() }
        #expect(write(ends[1], "q", 1) == 1)
        #expect(wakePipe.wait(forInputOn: ends[0], milliseconds: 0) == .woken)

        close(ends[1])

        #expect(wakePipe.wait(forInputOn: ends[0], milliseconds: 60_000) == .hungUp)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1 && byte == UInt8(ascii: "q"), "what came before the end is read")
        #expect(wakePipe.wait(forInputOn: ends[0], milliseconds: 60_000) == .hungUp)
    }

    @Test func wakingAClosedPipeDoesNothing() {
        let pipe = WakePipe()
        pipe.closeEnds()
        pipe.wake()
    }
}
