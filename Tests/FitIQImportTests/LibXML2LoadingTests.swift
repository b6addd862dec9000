import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// libxml2 (and the ICU it links) is loaded only when an export is read, never at start-up.
struct LibXML2LoadingTests {
    /// A short Health export as XML.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-01 10:00:00 +0200"/>
         <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierHeight" unit="cm" value="171" startDate="2024-04-30 08:00:00 +0200"/>
        </HealthData>

        """

    @Test func readingAnExportLoadsLibXML2IntoTheProcess() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = directory.file("export.xml")
        try Data(Self.export.utf8).write(to: url)

        let snapshot = try await readExport(url).snapshot()

        #expect(snapshot.samples(of: .height).map(\.value) == [171])
        #expect(snapshot.biologicalSex == .value(.female))
        #expect(LibXML2.isLoaded)
        #expect(try Self.mappedFiles().contains("/libxml2.so.2"), "libxml2 is mapped once an export was read")
    }

    /// `/proc/self/maps` read to its end: it reports a size of 0, and a reader that trusts the size
    /// gets only its first page, where a process with many threads and libraries does not list libxml2.
    static func mappedFiles() throws -> String {
        let descriptor = open("/proc/self/maps", O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aMissingLibraryIsAClearErrorNamingTheDebianPackage() throws {
        let error = try #require(throws: HealthImportError.self) {
            try LibXML2.open("libfitiq-no-such-library.so.2")
        }
        guard case .libraryMissing(let library, let package, let reason) = error else {
            Issue.record("expected libraryMissing, got \(error)")
            return
        }
        #expect(library == "libfitiq-no-such-library.so.2")
        #expect(package == "libxml2")
        #expect(reason.contains("No such file"), "dlerror's reason: \(reason)")
        let message = error.description
        #expect(message.hasPrefix("Cannot read Health exports: libfitiq-no-such-library.so.2 could not be loaded ("))
        #expect(message.hasSuffix("install the Debian package libxml2 (apt install libxml2)."))
    }

    @Test func aLibraryWithoutLibXML2sFunctionsIsRefused() throws {
        // zlib is loaded in every process that reads zip exports; it has none of libxml2's functions.
        let error = try #require(throws: HealthImportError.self) { try LibXML2.open("libz.so.1") }
        #expect(error == .libraryMissing(library: "libz.so.1", package: "libxml2", reason: "it has no xmlInitParser"))
    }

    @Test func nestingIsCountedFromStartAndEndEvents() throws {
        func read(_ body: String) throws -> HealthSnapshot {
            let parser = try HealthXMLParser(fileName: "export.xml")
            let text = "<HealthData>\(body)</HealthData>\n"
            try Array(text.utf8).withUnsafeBytes { try parser.feed($0) }
            return try parser.finish()
        }
        let depth = Int(HealthDataCollector.maxDepth)
        // The root and depth - 1 elements inside it: as deep as allowed.
        _ = try read(String(repeating: "<a>", count: depth - 1) + String(repeating: "</a>", count: depth - 1))
        // Empty-element tags and closed siblings never add up.
        _ = try read(String(repeating: "<a/>", count: depth * 4) + String(repeating: "<b></b>", count: depth * 4))
        #expect(
            throws: HealthImportError.malformed(
                file: "export.xml", line: 1, reason: "elements are nested more than \(depth) deep")
        ) {
            try read(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth))
        }
    }
}

/// The built `fitiq-tui` starts without libxml2 and ICU: nothing it links needs them.
@Suite(.timeLimit(.minutes(2)))
struct StartupLibrariesTests {
    /// Runs `fitiq-tui` with the dynamic loader's library trace (`LD_DEBUG=libs`) in a fresh home.
    static func loaderTrace(_ arguments: [String]) async throws -> CommandRunner.Result {
        let temporary = try TemporaryFolder("fitiq-libs")
        defer { temporary.remove() }
        let folder = temporary.url
        let runner = CommandRunner(
            executable: try BuiltProducts.executable(named: "fitiq-tui"),
            environment: [
                "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin",
                "TZ": "UTC", "LD_DEBUG": "libs",
            ])
        return try await runner.run(arguments)
    }

    /// The libraries the loader opened, from its `LD_DEBUG=libs` trace.
    static func loaded(_ trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test(arguments: [["--version"], ["status"]])
    func startsWithoutLibXML2OrICU(_ arguments: [String]) async throws {
        let result = try await Self.loaderTrace(arguments)
        let libraries = Self.loaded(result.stderr)
        #expect(libraries.contains { $0.contains("/libc.so.6") }, "the loader trace is there: \(result)")
        #expect(libraries.contains { $0.contains("swiftCore") }, "\(libraries)")
        #expect(!libraries.contains { $0.contains("libxml2") }, "\(libraries)")
        #expect(!libraries.contains { $0.contains("libicu") }, "\(libraries)")
        #expect(!result.stderr.contains("libxml2"), "nothing even looked for libxml2")
    }
}
