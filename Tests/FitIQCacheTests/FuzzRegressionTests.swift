import FitIQCore
import Foundation
import Testing

@testable import FitIQCache

/// Inputs the `cache` fuzz target (Fuzz/Targets/cache.swift) found, each kept as it was found.
struct FuzzRegressionTests {
    /// An account.json whose history entry was logged at 1e300 seconds after 2001 was read, and the day
    /// of that entry (the history screen, `height history`) trapped converting it to whole seconds. A
    /// date millions of years away makes the file unreadable, so it is moved aside, naming the field.
    @Test(arguments: ["1e300", "-1e300", "1.7976931348623157e308", "1.00001e14"])
    func aDateOutsideTheCalendarMakesTheFileUnreadable(seconds: String) {
        let file = #"""
            {"schemaVersion": 1, "state": {"outbox": {"progress": []}, "history": [
              {"id": "6DC865AB-9004-4C61-8AA6-9F83469FB9A3", "loggedAt": \#(seconds), "quantity": 180,
               "source": "manual", "type": "height"}]}}
            """#
        guard case .unreadable(let reason) = CacheFile<AccountFile>.decode(Data(file.utf8)) else {
            Issue.record("an entry logged at \(seconds) was read")
            return
        }
        #expect(reason.contains("state.history.[0].loggedAt is invalid"))
        #expect(reason.contains("is not a date: it is more than 3 million years from 2001"))
    }

    /// Dates of every day a person can type still read back exactly.
    @Test(arguments: [-63_113_904_000.0, 0, 817_174_086.251_843_7, 252_423_993_599])
    func datesWithinTheCalendarStillRead(seconds: Double) throws {
        let file = #"""
            {"schemaVersion": 1, "state": {"outbox": {"progress": []}, "history": [], "lastSyncAt": \#(seconds)}}
            """#
        guard case .value(let state) = CacheFile<AccountFile>.decode(Data(file.utf8)) else {
            Issue.record("a file synced at \(seconds) was not read")
            return
        }
        #expect(state.server.lastSyncAt == Date(timeIntervalSinceReferenceDate: seconds))
    }
}
