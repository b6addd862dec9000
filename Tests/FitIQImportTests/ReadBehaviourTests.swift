import Dispatch
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Progress, cancellation, incomplete files and content sniffing.
struct ReadBehaviourTests {
    @Test(arguments: [false, true])
    func progressIsMonotonicAndEndsAtTheTotal(isZip: Bool) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let options = ["--mb", "3", "--seed", "21"] + (isZip ? ["--zip"] : [])
        let (url, _) = try await ExportGenerator.export(in: directory, name: isZip ? "e.zip" : "e.xml", options)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)

        let outcome = try await readExport(url, chunkSize: 16_384)

        _ = try outcome.snapshot()
        let reports = outcome.reports
        #expect(reports.count >= 2)
        #expect(reports.count <= 250, "progress is throttled to about every 1 %")
        #expect(reports.allSatisfy { $0.totalBytes == Int64(size) })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesRead < $1.bytesRead })
        #expect(reports.last?.bytesRead == Int64(size))
    }

    @Test(arguments: [false, true])
    func cancellationStopsTheReadAtTheNextChunk(isZip: Bool) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let options = ["--mb", "1", "--seed", "22"] + (isZip ? ["--zip"] : [])
        let (url, _) = try await ExportGenerator.export(in: directory, name: isZip ? "e.zip" : "e.xml", options)
        // Given a read that is paused inside its first progress report past zero
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let resume = DispatchSemaphore(value: 0)
        let reports = Locked<[HealthReadProgress]>([])
        let source = AppleHealthExport(url: url, chunkSize: 4096)
        let read = Task {
            try await source.read { report in
                let first = reports.withLock { list in
                    list.append(report)
                    return report.bytesRead > 0 && list.count(where: { $0.bytesRead > 0 }) == 1
                }
                if first {
                    startedSignal.yield()
                    resume.wait()
                }
            }
        }
        for await _ in started { break }

        // When the task is cancelled and the read resumes
        read.cancel()
        resume.signal()

        // Then it throws CancellationError without reading to the end
        let result = try await withTimeout { await read.result }
        #expect(throws: CancellationError.self) { try result.get() }
        let last = try #require(reports.value.last)
        #expect(last.bytesRead < (last.totalBytes ?? 0))
    }

    @Test
    func aTaskCancelledBeforeTheReadGetsCancellationError() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, _) = try await ExportGenerator.export(in: directory, ["--mb", "0.2"])
        let read = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await AppleHealthExport(url: url).read { _ in }
        }

        await #expect(throws: CancellationError.self) { try await read.value }
    }

    @Test(arguments: [0.1, 0.5, 0.9, 0.999])
    func aTruncatedFileIsAnErrorAndReturnsNothing(fraction: Double) async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, _) = try await ExportGenerator.export(in: directory, ["--mb", "0.5", "--seed", "23"])
        let data = try Data(contentsOf: url)
        let cut = directory.file("cut.xml")
        try data.prefix(Int(Double(data.count) * fraction)).write(to: cut)

        let outcome = try await readExport(cut)

        guard case .truncated(let file, let line) = try #require(outcome.importError) else {
            Issue.record("expected a truncation error, got \(outcome.result)")
            return
        }
        #expect(file == cut.path)
        #expect(line > 1)
    }

    @Test
    func aFileCutInsideTheDoctypeIsTruncated() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, _) = try await ExportGenerator.export(in: directory, ["--mb", "0.2"])
        let cut = directory.file("cut.xml")
        let head = try Data(contentsOf: url).prefix(3000)
        try head.write(to: cut)
        // The stripped DOCTYPE leaves its newlines behind, so the line is the file's own.
        let line = head.count(where: { $0 == UInt8(ascii: "\n") }) + 1

        let outcome = try await readExport(cut)

        #expect(outcome.importError == .truncated(file: cut.path, line: line))
        #expect(
            outcome.importError?.description
                == "\(cut.path) is not a complete Health export: the XML ends early at line \(line).")
    }

    @Test
    func aTruncatedZipIsADamagedArchive() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (url, _) = try await ExportGenerator.export(in: directory, name: "e.zip", ["--mb", "0.5", "--zip"])
        let cut = directory.file("cut.zip")
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: cut)

        let outcome = try await readExport(cut)

        guard case .damagedArchive = try #require(outcome.importError) else {
            Issue.record("expected a damaged archive, got \(outcome.result)")
            return
        }
    }

    @Test
    func theFormatIsTakenFromTheContentNotTheExtension() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (xml, answers) = try await ExportGenerator.export(in: directory, name: "really-xml.zip", ["--mb", "0.3"])
        let (zip, _) = try await ExportGenerator.export(
            in: directory, name: "really-zip.xml", ["--mb", "0.3", "--zip"])

        #expect(try await readExport(xml).snapshot().samples(of: .height).count == answers.count)
        #expect(try await readExport(zip).snapshot().samples(of: .height).count == answers.count)
    }

    @Test
    func otherFilesAreClearErrors() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let binary = directory.file("photo.zip")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: binary)
        let empty = directory.file("empty.xml")
        try Data().write(to: empty)
        let otherXML = directory.file("other.xml")
        try Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n".utf8).write(to: otherXML)
        let missing = directory.file("missing.zip")

        #expect(try await readExport(binary).importError == .notAnExport(path: binary.path))
        #expect(try await readExport(empty).importError == .notAnExport(path: empty.path))
        #expect(try await readExport(otherXML).importError == .notHealthData(file: otherXML.path, rootElement: "gpx"))
        #expect(
            try await readExport(missing).importError
                == .unreadable(path: missing.path, reason: "No such file or directory"))
        #expect(
            try await readExport(directory.url).importError
                == .unreadable(path: directory.url.path, reason: "not a regular file"))
    }
}
