import Testing

@testable import FitIQHTTP

/// The lock the session hands its transfers over with: what a thread wrote before handing an object
/// over is what the taker reads. Under `make sanitize` this is also ThreadSanitizer's test of the
/// handoff: the takers meet the makers on the lock, contended, as the libcurl thread meets callers.
struct PthreadMutexTests {
    /// An object made on one thread and changed on another, as a transfer is.
    private final class Made: @unchecked Sendable {  // Touched by one thread at a time, in turn.
        var marks: [Int]
        init(_ marks: [Int]) { self.marks = marks }
    }

    @Test func objectsMadeOnManyThreadsAreTakenWhole() async {
        let makers = 4
        let each = 1_000
        let waiting = PthreadMutex<[Made]>([])
        let taken = await withTaskGroup(of: [Made].self) { group in
            for maker in 0..<makers {
                group.addTask {
                    for index in 0..<each {
                        let made = Made([maker, index])
                        waiting.withLock { $0.append(made) }
                    }
                    return []
                }
            }
            group.addTask {
                var taken: [Made] = []
                while taken.count < makers * each {
                    let batch = waiting.withLock { waiting in
                        defer { waiting = [] }
                        return waiting
                    }
                    for made in batch { made.marks.append(made.marks[0] * each + made.marks[1]) }
                    taken += batch
                    if batch.isEmpty { await Task.yield() }
                }
                return taken
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(taken.count == makers * each)
        #expect(Set(taken.map { $0.marks[2] }) == Set(0..<makers * each))
        #expect(waiting.withLock { $0.isEmpty })
    }
}
