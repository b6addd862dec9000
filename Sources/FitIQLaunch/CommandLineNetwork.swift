import FitIQCore
import FitIQTUI
import Foundation

/// The editor's network through the command-line program, `fitiq-tui-cli`, run as a child process.
///
/// The editor binary links no HTTP stack, which keeps its start short (`make bench-startup`); it
/// delivers by running `sync`, `login` and `register`, which share its cache under the account lock.
/// Passwords travel on the child's standard input, never on its command line.
public struct CommandLineNetwork: EditorNetwork {
    let executable: URL
    let accounts: Accounts
    let environment: [String: String]

    public init(executable: URL, accounts: Accounts, environment: [String: String]) {
        self.executable = executable
        self.accounts = accounts
        self.environment = environment
    }

    /// A command that did not do what was asked; `message` is what it printed for people.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public func signIn(email: String, password: String) async throws -> Accounts.SignedIn {
        try await signedIn(after: ["login", "--email", email], password: password)
    }

    public func register(email: String, password: String, name: String, dateOfBirth: String) async throws
        -> Accounts.SignedIn
    {
        try await signedIn(
            after: ["register", "--email", email, "--name", name, "--date-of-birth", dateOfBirth], password: password)
    }

    public func sync(_ account: Account, until deadline: Date) async throws {
        let result = try await run(["sync"])
        if result.status == 3 { throw SessionError.signedOut(reason: Self.message(result.errors)) }
        guard result.status == 0 else { throw Failure(message: Self.message(result.errors)) }
        // `sync` keeps what it could not send and says so on stderr.
        if let line = result.errors.split(separator: "\n").first(where: { $0.hasPrefix("Sync incomplete: ") }) {
            throw Failure(message: String(line.dropFirst("Sync incomplete: ".count)))
        }
    }

    private func signedIn(after arguments: [String], password: String) async throws -> Accounts.SignedIn {
        let result = try await run(arguments, input: password + "\n")
        guard result.status == 0 else { throw Failure(message: Self.message(result.errors)) }
        guard let account = try await accounts.current() else {
            throw Failure(message: "Signed in, but the account is not in the cache.")
        }
        return Accounts.SignedIn(account: account, profileError: nil)
    }

    /// The last line a command printed on stderr, without its `Error: ` prefix.
    static func message(_ errors: String) -> String {
        let line = errors.split(separator: "\n").last.map(String.init) ?? "the command failed"
        return line.hasPrefix("Error: ") ? String(line.dropFirst("Error: ".count)) : line
    }

    struct Result {
        let status: Int32
        let errors: String
    }

    /// Runs the command line on the editor's server with `arguments`, off the cooperative pool.
    private func run(_ arguments: [String], input: String = "") async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--server", accounts.server]
        process.environment = environment
        let stdin = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread {
                stdin.fileHandleForWriting.write(Data(input.utf8))
                try? stdin.fileHandleForWriting.close()
                let errors = stderr.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus, errors: String(decoding: errors, as: UTF8.self)))
            }.start()
        }
    }
}

/// A backend for a process that never calls the server itself (the editor binary): every call fails
/// as unreachable. The editor's use cases work on the cache; ``CommandLineNetwork`` delivers.
public struct LocalOnlyBackend: AuthRemote, ProfileRemote, ProgressRemote {
    public init() {}

    public var backend: Backend { Backend(auth: self, profiles: self, progress: self) }

    private static let unreachable = RemoteError.unreachable(message: "this process does not call the server")

    public func register(_ registration: Registration) async throws(RemoteError) -> RegistrationResult {
        throw Self.unreachable
    }
    public func login(email: String, password: String) async throws(RemoteError) -> TokenPair { throw Self.unreachable }
    public func refresh(refreshToken: String) async throws(RemoteError) -> TokenPair { throw Self.unreachable }
    public func fetchProfile(accessToken: String) async throws(RemoteError) -> RemoteProfile { throw Self.unreachable }
    public func createProfile(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    { throw Self.unreachable }
    public func updateMetadata(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    { throw Self.unreachable }
    public func updatePhysical(_ patch: PhysicalPatch, accessToken: String) async throws(RemoteError) -> RemoteProfile {
        throw Self.unreachable
    }
    public func list(_ query: ProgressQuery, accessToken: String) async throws(RemoteError) -> ProgressPage {
        throw Self.unreachable
    }
    public func log(_ entry: NewProgressEntry, accessToken: String) async throws(RemoteError) -> RemoteProgressEntry {
        throw Self.unreachable
    }
    public func delete(id: String, accessToken: String) async throws(RemoteError) { throw Self.unreachable }
}
