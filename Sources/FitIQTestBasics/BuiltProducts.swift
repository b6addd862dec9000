import Foundation

/// Finds executables of this package built next to the running test bundle.
public enum BuiltProducts {
    /// Why an executable could not be found.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The built executable `name` (e.g. `fitiq-tui`) from the same products folder as the tests.
    public static func executable(named name: String) throws -> URL {
        var starts: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).standardizedFileURL.deletingLastPathComponent())
        }
        for start in starts {
            var folder = start
            for _ in 0..<5 {
                let candidate = folder.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw NotFound(description: "\(name) was not found near \(starts.map(\.path)); build it first")
    }

    /// The sanitizer options of this test process (`make sanitize` sets them), for the environment of
    /// each built program a test starts: those programs are built with the same sanitizer, and with
    /// these options they write their reports where the run looks and use its suppressions. Empty
    /// outside a sanitizer run, so the environments stay exactly what the tests set.
    public static var sanitizerOptions: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            ["TSAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS"].contains($0.key)
        }
    }

    /// `environment` for a program run under `strace`: LeakSanitizer needs ptrace itself and stops
    /// with a fatal error under a tracer, so a sanitizer run's leak check is off for that one process
    /// (AddressSanitizer's other checks stay on). Unchanged outside a sanitizer run.
    public static func traced(_ environment: [String: String]) -> [String: String] {
        guard let options = environment["ASAN_OPTIONS"] else { return environment }
        return environment.merging(["ASAN_OPTIONS": options + " detect_leaks=0"]) { $1 }
    }
}
