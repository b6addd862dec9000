import Foundation

/// Runs a built executable as a separate process and collects what it printed.
public struct CommandRunner: Sendable {
    /// What a finished process left behind.
    public struct Result: Sendable, CustomStringConvertible {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public let executable: URL
    /// The whole environment of each run (nothing is inherited but what is put here).
    public var environment: [String: String]

    public init(executable: URL, environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    /// Runs with `arguments`, feeding `input` on standard input; killed after `timeout` (a hang guard).
    public func run(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(60)) async throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        let inFile = folder.appendingPathComponent("in")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        FileManager.default.createFile(atPath: inFile.path, contents: Data((input ?? "").utf8))
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try FileHandle(forReadingFrom: inFile)
        try process.run()
        // The process is another program: poll for its end; the deadline only guards against a hang.
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }
}
