import FitIQCore
import Foundation
import Testing

@testable import FitIQImport

/// The hand-written timestamp parser agrees with Foundation and honours offsets.
struct HealthTimestampTests {
    @Test(arguments: [
        "2019-04-20 21:15:57 -0400", "2025-05-01 19:30:00 -0500", "2025-05-02 08:00:00 +0900",
        "2016-02-29 00:00:00 +0000", "1999-12-31 23:59:59 +0530", "2024-03-31 02:30:00 +0100",
        "1970-01-01 00:00:00 +0000", "1901-07-04 12:00:00 -1200",
    ])
    func agreesWithFoundation(_ text: String) {
        #expect(HealthTimestamp.parse(text) == ExportGenerator.instant(text))
    }

    @Test
    func ordersByInstantNotByText() throws {
        let decoy = try #require(HealthTimestamp.parse("2025-05-02 08:00:00 +0900"))
        let latest = try #require(HealthTimestamp.parse("2025-05-01 19:30:00 -0500"))
        #expect(latest.timeIntervalSince(decoy) == 90 * 60)  // 00:30 UTC vs 23:00 UTC the day before
    }

    @Test(arguments: [
        "", "2019-04-20", "2019-04-20 21:15:57", "2019-02-30 10:00:00 +0000", "2019-13-01 10:00:00 +0000",
        "2019-04-20T21:15:57 -0400", "2019-04-20 21:15:57 -04:00", "2019-04-20 24:00:00 +0000",
        "2019-04-20 21:15:57 *0400", "２019-04-20 21:15:57 -0400",
    ])
    func rejectsAnythingElse(_ text: String) {
        #expect(HealthTimestamp.parse(text) == nil)
    }
}
