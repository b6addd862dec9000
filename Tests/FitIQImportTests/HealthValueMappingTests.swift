import FitIQCore
import Foundation
import Testing

@testable import FitIQImport

/// Raw attribute text maps to domain values.
struct HealthValueMappingTests {
    @Test
    func mapsBiologicalSex() {
        #expect(HealthValueMapping.biologicalSex("HKBiologicalSexMale") == .value(.male))
        #expect(HealthValueMapping.biologicalSex("HKBiologicalSexFemale") == .value(.female))
        #expect(HealthValueMapping.biologicalSex("HKBiologicalSexOther") == .value(.other))
        #expect(HealthValueMapping.biologicalSex("HKBiologicalSexNotSet") == .notSet)
        #expect(HealthValueMapping.biologicalSex("HKBiologicalSexFuture") == .unknown("HKBiologicalSexFuture"))
        #expect(HealthValueMapping.biologicalSex(nil) == .missing)
    }

    @Test
    func mapsDateOfBirth() {
        #expect(
            HealthValueMapping.dateOfBirth("1990-02-02")
                == .value(CalendarDate(year: 1990, month: 2, day: 2) ?? .init(containing: .now, in: .utc)))
        #expect(HealthValueMapping.dateOfBirth("") == .notSet)
        #expect(HealthValueMapping.dateOfBirth("1990-02-30") == .unknown("1990-02-30"))
        #expect(HealthValueMapping.dateOfBirth(nil) == .missing)
    }

    @Test(arguments: [
        ("171", "cm", 171.0), ("1.71", "m", 171.0), ("67", "in", 170.18), ("5.58333", "ft", 170.1798984),
        ("170.123456789012", "cm", 170.123456789012),
    ])
    func convertsHeightsToCentimetres(_ value: String, _ unit: String, _ centimetres: Double) throws {
        let converted = try #require(HealthValueMapping.centimetres(value: value, unit: unit))
        #expect(abs(converted - centimetres) < 1e-9)
    }

    @Test(arguments: [("171", "mm"), ("171", "lb"), ("abc", "cm"), ("-3", "cm"), ("nan", "cm"), ("inf", "cm")])
    func skipsWhatIsNotAHeight(_ value: String, _ unit: String) {
        #expect(HealthValueMapping.centimetres(value: value, unit: unit) == nil)
    }
}
