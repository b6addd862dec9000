import FitIQCore
import Testing

struct HeightTests {
    @Test(arguments: [
        ("180.5", UnitSystem.metric, 180.5),
        ("180.5 cm", .imperial, 180.5),
        ("180,5 cm", .metric, 180.5),
        ("5 ft 11 in", .metric, 180.34),
        ("5'11\"", .metric, 180.34),
        ("5' 11", .imperial, 180.34),
        ("5ft11", .imperial, 180.34),
        ("5′11″", .imperial, 180.34),
        ("71 in", .metric, 180.34),
        ("71\"", .metric, 180.34),
        ("71", .imperial, 180.34),
        ("1.8 m", .imperial, 180),
        ("5.9 ft", .metric, 179.832),
        ("6 ft", .metric, 182.88),
        ("  172 CM ", .imperial, 172),
    ])
    func parsesWhatUsersType(text: String, units: UnitSystem, centimetres: Double) throws {
        let parsed = try Height.parse(text, unitSystem: units)
        #expect(abs(parsed - centimetres) < 0.001)
    }

    @Test(arguments: [
        ("abc", ValidationError.invalidFormat(.height, rule: .measurementText)),
        ("-5", .invalidFormat(.height, rule: .measurementText)),
        ("0", .outOfRange(.height, rule: .allowedRange)),
        ("400 cm", .outOfRange(.height, rule: .allowedRange)),
        ("5'13\"", .invalidFormat(.height, rule: .inchesBelowAFoot(given: 13))),
        ("1e9", .invalidFormat(.height, rule: .measurementText)),
        ("5.5'11\"", .invalidFormat(.height, rule: .measurementText)),
        ("", .required(.height)),
        ("180 kg", .invalidFormat(.height, rule: .measurementText)),
    ])
    func rejectsBadInputNamingTheRule(text: String, expected: ValidationError) {
        #expect {
            try Height.parse(text, unitSystem: .metric)
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            // Same kind of error, about the height field, with a sentence that names the field.
            return error == expected && String(describing: error).hasPrefix("Height ")
        }
    }

    @Test func inchesOfAFootOrMoreAreNamedInTheMessage() {
        #expect {
            try Height.parse("5'13\"", unitSystem: .imperial)
        } throws: { error in
            String(describing: error).contains("inches after feet must be below 12 (13 given)")
        }
    }

    @Test func explainsTheRangeAndTheForms() {
        let range = #expect(throws: ValidationError.self) { try Height.parse("400 cm", unitSystem: .metric) }
        #expect(range?.description.contains("between 50 and 300 cm") == true)
        let forms = #expect(throws: ValidationError.self) { try Height.parse("tall", unitSystem: .metric) }
        #expect(forms?.description.contains("5'11\"") == true)
    }

    @Test(arguments: [
        (180.34, UnitSystem.metric, "180.3 cm"),
        (180.0, .metric, "180.0 cm"),
        (180.34, .imperial, "5 ft 11 in"),
        (182.88, .imperial, "6 ft 0 in"),
        (152.4, .imperial, "5 ft 0 in"),
    ])
    func formatsInTheUsersUnits(centimetres: Double, units: UnitSystem, text: String) {
        #expect(Height.format(centimetres, unitSystem: units) == text)
    }

    @Test(arguments: UnitSystem.allCases)
    func roundTripsStably(units: UnitSystem) throws {
        for tenth in stride(from: 500, through: 3000, by: 7) {
            let shown = Height.format(Double(tenth) / 10, unitSystem: units)
            let reparsed = try Height.parse(shown, unitSystem: units)
            #expect(Height.format(reparsed, unitSystem: units) == shown)
        }
    }

    @Test func unchangedTextChangesNothing() throws {
        // 180.5 cm shows as 5 ft 11 in; confirming that text (or typing 71) keeps 180.5.
        func change(from current: Double?, to text: String, unitSystem: UnitSystem) throws -> Double? {
            Height.change(from: current, to: try Height.parse(text, unitSystem: unitSystem), unitSystem: unitSystem)
        }
        #expect(try change(from: 180.5, to: "5 ft 11 in", unitSystem: .imperial) == nil)
        #expect(try change(from: 180.5, to: "71", unitSystem: .imperial) == nil)
        #expect(try change(from: 180.5, to: "180.5 cm", unitSystem: .metric) == nil)
        let changed = try #require(try change(from: 180.5, to: "6 ft", unitSystem: .imperial))
        #expect(abs(changed - 182.88) < 0.001)
        #expect(try change(from: nil, to: "170", unitSystem: .metric) == 170)
    }
}
