import FitIQCore
import Foundation
import Testing

@testable import FitIQHealth

/// Inputs the `health-xml` fuzz target (Fuzz/Targets/health-xml.swift) checks, each kept inline.
struct FuzzRegressionTests {
    /// A Height record of 1e308 ft passed the finite check before conversion and became an infinite
    /// height in the snapshot (the import then counted it out of range, but the reader promised
    /// numbers). A value that overflows in conversion is skipped like any other that is no number.
    @Test func aHeightThatOverflowsInConversionIsNotRead() throws {
        let document = #"""
            <HealthData><Record type="HKQuantityTypeIdentifierHeight" unit="ft" startDate="2025-05-01 19:30:00 -0500" value="1e308"/><Record type="HKQuantityTypeIdentifierHeight" unit="cm" startDate="2025-05-02 19:30:00 -0500" value="171"/></HealthData>
            """#
        let parser = try HealthXMLParser(fileName: "export.xml")
        try Data(document.utf8).withUnsafeBytes { try parser.feed($0) }
        let snapshot = try parser.finish()
        #expect(snapshot.samples(of: .height).map(\.value) == [171])
        #expect(HealthValueMapping.centimetres(value: "1e308", unit: "ft") == nil)
        #expect(HealthValueMapping.centimetres(value: "1.7e308", unit: "m") == nil)
        let feet = try #require(HealthValueMapping.centimetres(value: "5.5", unit: "ft"))
        #expect(abs(feet - 167.64) < 1e-9)
    }
}
