import FitIQCore
import Foundation
import Testing

@testable import FitIQHTTP

/// Inputs the `wire` fuzz target (Fuzz/Targets/wire.swift) found, each kept as it was found.
struct FuzzRegressionTests {
    /// `height_cm` 1e300 is a JSON number like any other: it was read, and showing it in feet and
    /// inches trapped (a Double beyond Int in `Height.format`). It is shown, in centimetres.
    @Test func aHugeHeightFromTheServerIsShownNotATrap() throws {
        let profile = try WireResponses.profile(Data(#"{"name":"x","height_cm":1e300}"#.utf8))
        let height = try #require(profile.heightCm)
        #expect(Height.format(height, unitSystem: .imperial) == "1e+300 cm")
        #expect(Height.format(height, unitSystem: .metric) == "1e+300 cm")
    }

    /// Numbers written as text were read with `Double(_:)`, which takes `nan` and `inf`: a height that
    /// is not a number reached the profile. Such a number is no number: the height reads as absent, as
    /// any optional field of the wrong type does, and an entry without a quantity is unreadable.
    @Test(arguments: ["nan", "inf", "-infinity", "NaN"])
    func numbersThatAreNotFiniteAreNotRead(text: String) throws {
        let profile = try WireResponses.profile(Data(#"{"name":"x","height_cm":"\#(text)"}"#.utf8))
        #expect(profile.heightCm == nil)
        let entry = #"{"id":"e","type":"height","quantity":"\#(text)","date":"2024-01-15T08:00:00Z"}"#
        #expect(throws: WireResponses.Unreadable(reason: "a progress entry lacks its id, quantity or date")) {
            try WireResponses.progressEntry(Data(entry.utf8))
        }
        let page = #"{"data":{"entries":[\#(entry)],"total":"\#(text)"}}"#
        #expect(throws: WireResponses.Unreadable.self) {
            try WireResponses.progressPage(Data(page.utf8), query: ProgressQuery())
        }
    }
}
