// Child process for FitIQCacheTests: exercises the cache from a separate process.
//
//   fitiq-cache-crash-child save-loop <folder> <start>   saves value-N for N = start, start+1, … forever,
//                                                         printing each N once its save returned
//   fitiq-cache-crash-child increment <folder> <count>   adds 1 to the counter in the profile name, count times
//   fitiq-cache-crash-child hold-lock <folder> <millis>  holds the folder's lock, prints "locked", waits, exits
import FitIQCache
import FitIQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state saved for `counter`: its name says the counter, and its history length varies with it,
/// so successive files differ in size.
func crashTestState(_ counter: Int) -> AccountState {
    let identity = AccountIdentity(userId: "crash-child", email: "crash@example.com")
    let profile = UserProfile(identity: identity, metadata: ProfileMetadata(name: "value-\(counter)"))
    let history = (0..<(counter % 17)).map { index in
        ProgressEntry(
            quantity: 150 + Double(index),
            loggedAt: Date(timeIntervalSinceReferenceDate: Double(counter * 100 + index)),
            notes: String(repeating: "x", count: counter % 5), source: .manual)
    }
    return AccountState(profile: profile, history: WholeHistory(entries: history))
}

func say(_ line: String) {
    // One write per line, so a reader never sees half an acknowledgement.
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Runs `mode`. The store and its lock are this function's: a store a global kept until exit would hold
/// its memory's `Data` through pointers whose spare bits hold an enum's case, which LeakSanitizer does
/// not take for pointers, so the sanitizer run would report them as leaked.
func run(_ mode: String, folder: URL, number: Int) async throws {
    let lock = AccountLock(file: folder.appendingPathComponent("lock"), timeout: .seconds(30))
    let store = JSONFileProfileStore(folder: folder, lock: lock)
    switch mode {
    case "save-loop":
        var counter = number
        while true {
            let state = crashTestState(counter)
            try await store.update { $0 = state }
            say("\(counter)")
            counter += 1
        }
    case "increment":
        for _ in 0..<number {
            try await store.update { state in
                let count = state.profile.flatMap { Int($0.name) } ?? 0
                let identity = AccountIdentity(userId: "crash-child", email: "crash@example.com")
                state.profile = UserProfile(identity: identity, metadata: ProfileMetadata(name: "\(count + 1)"))
            }
        }
    case "hold-lock":
        try await lock.withLock {
            say("locked")
            try await Task.sleep(for: .milliseconds(number))
        }
    default:
        fail("unknown mode \(mode)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let number = Int(arguments[3]) else {
    fail("usage: fitiq-cache-crash-child save-loop|increment|hold-lock <folder> <number>")
}
do {
    try await run(arguments[1], folder: URL(fileURLWithPath: arguments[2], isDirectory: true), number: number)
} catch {
    fail("\(error)")
}
