import FitIQCore
import FitIQTestBasics
import Foundation
import Synchronization
import Testing

@testable import FitIQHealth

/// CSV files of measurements read from disk in pieces (`import-csv`, `i` with a `.csv` path).
struct MeasurementCSVFileTests {
    @Test func aFileOfManyPiecesIsReadWholeWithProgressUpToItsSize() throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        let url = directory.file("weights.csv")
        let first = try #require(CalendarDate(year: 2000, month: 1, day: 1))
        let rows = (0..<6_000).map { day in
            "\(first.adding(days: day))T07:00:00Z,weight,\(80 + day % 10).5,kg,manual,id\(day)"
        }
        let text = (["logged_at,metric,value,unit,source,id"] + rows).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: url)
        #expect(text.utf8.count > 3 * MeasurementCSVFile.chunkSize, "several pieces")
        let reports = Mutex<[HealthReadProgress]>([])

        let csv = try MeasurementCSVFile.read(url, zone: .utc) { progress in reports.withLock { $0.append(progress) } }

        #expect(csv == (try MeasurementCSV.read(text, zone: .utc)))
        #expect(csv.readings.count == 6_000)
        let seen = reports.withLock { $0 }
        #expect(seen.count == (text.utf8.count + MeasurementCSVFile.chunkSize - 1) / MeasurementCSVFile.chunkSize)
        #expect(seen.allSatisfy { $0.totalBytes == Int64(text.utf8.count) })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytesRead < $1.bytesRead })
        #expect(seen.last?.bytesRead == Int64(text.utf8.count))
    }

    @Test func aMissingFileOrAFolderIsNamedWithTheReason() throws {
        let directory = try TemporaryFolder("fitiq-health-tests")
        defer { directory.remove() }
        #expect {
            try MeasurementCSVFile.read(directory.file("nowhere.csv"), zone: .utc)
        } throws: {
            String(describing: $0).contains("nowhere.csv") && String(describing: $0).contains("No such file")
        }
        #expect {
            try MeasurementCSVFile.read(directory.url, zone: .utc)
        } throws: {
            String(describing: $0).contains("not a regular file")
        }
    }
}
