import FitIQTestBasics
import Foundation
import Testing

/// The generator's `--hostile` files, made once for a suite (the 1 GiB zip bomb takes seconds to
/// compress) with `--ssrf-url` pointing at a loopback listener that must never see a connection.
struct HostileCorpus: Sendable {
    let directory: TemporaryFolder
    let listener: LoopbackListener

    @TaskLocal static var current: HostileCorpus?

    /// The generated file called `name`.
    func file(_ name: String) -> URL {
        directory.file("hostile").appendingPathComponent(name)
    }

    /// The corpus of the running suite.
    static func shared() throws -> HostileCorpus {
        try #require(current, "the suite needs the .hostileCorpus trait")
    }
}

/// Generates a ``HostileCorpus`` before a suite runs and removes it afterwards.
struct HostileCorpusTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let listener = try LoopbackListener()
        try await ExportGenerator.run(
            ["--hostile", "--out", directory.file("hostile").path, "--ssrf-url", listener.url],
            log: directory.file("hostile.log"))
        try await HostileCorpus.$current.withValue(HostileCorpus(directory: directory, listener: listener)) {
            try await function()
        }
    }
}

extension Trait where Self == HostileCorpusTrait {
    /// Makes the generator's hostile files available as ``HostileCorpus/shared()``.
    static var hostileCorpus: Self { Self() }
}
