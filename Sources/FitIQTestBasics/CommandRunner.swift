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
        try await run(bytes: arguments.map { Array($0.utf8) }, input: input, timeout: timeout)
    }

    /// The same with each argument as bytes, which need not be UTF-8.
    public func run(bytes arguments: [[UInt8]], input: String? = nil, timeout: Duration = .seconds(60)) async throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        let inFile = folder.appendingPathComponent("in")
        try Data((input ?? "").utf8).write(to: inFile)
        let child = try ChildProcess(
            bytes: [Array(executable.path.utf8)] + arguments, environment: environment, input: .file(inFile),
            output: .file(out),
            errors: .file(err))
        let status = await child.exit(within: timeout)
        return Result(
            status: status,
            stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }
}
