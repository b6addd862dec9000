import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// The export member is found by content, one folder deep; nothing else in the archive matters.
struct ZipMemberTests {
    @Test
    func findsALocalizedMemberByItsContent() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (xml, answers) = try await ExportGenerator.export(in: directory, ["--mb", "0.3", "--sex", "male"])
        let cda = directory.file("cda.xml")
        try Data("<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n".utf8).write(to: cda)
        let zip = directory.file("Export.zip")
        try await ExportGenerator.zip(
            zip,
            members: [
                ("apple_health_export/export_cda.xml", cda), ("export.xml", xml),
                ("a/b/export.xml", xml), ("apple_health_export/Exportieren.xml", xml),
            ], log: directory.file("zip.log"))

        let snapshot = try await readExport(zip).snapshot()

        #expect(snapshot.biologicalSex == .value(.male))
        #expect(snapshot.samples(of: .height).count == answers.count)
    }

    @Test
    func anArchiveWithoutAnExportSaysSo() async throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let (xml, _) = try await ExportGenerator.export(in: directory, ["--mb", "0.2"])
        let zip = directory.file("photos.zip")
        try await ExportGenerator.zip(
            zip, members: [("export.xml", xml), ("deep/er/export.xml", xml), ("../export.xml", xml)],
            log: directory.file("zip.log"))

        let outcome = try await readExport(zip)

        #expect(outcome.importError == .noExportInArchive(path: zip.path))
        #expect(
            directory.contents().sorted() == [
                "export.xml", "export.xml.expect.json", "export.xml.log", "photos.zip", "zip.log",
            ])
    }

    @Test(arguments: [
        ("apple_health_export/export.xml", true), ("x/Exportieren.xml", true), ("export.xml", false),
        ("a/b/export.xml", false), ("../export.xml", false), ("./export.xml", false), ("/export.xml", false),
        ("a\\..\\export.xml", false), ("a/.xml", false), ("a/export.gpx", false),
    ])
    func candidateNamesAreOneFolderDeep(_ path: String, _ isCandidate: Bool) {
        #expect(ZipExportReader.isCandidate(path) == isCandidate)
    }
}
