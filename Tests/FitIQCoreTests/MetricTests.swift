import FitIQCore
import Testing

/// The measurement table: each metric's units, parsing, range and display.
struct MetricTests {
    @Test(arguments: [
        ("72.4", UnitSystem.metric, 72.4),
        ("72,4 kg", .metric, 72.4),
        ("72.4kg", .imperial, 72.4),
        // Pounds and stones converted, kept to 0.01 kg: 72.574 779 2, 72.756 216 148, 71.667 594 46 and
        // 69.853 225 98 kg.
        ("160 lb", .metric, 72.57),
        ("160.4 lbs", .metric, 72.76),
        ("160", .imperial, 72.57),
        ("11 st 4 lb", .metric, 71.67),
        ("11st4", .imperial, 71.67),
        ("11 st", .metric, 69.85),
        ("  80 KG ", .metric, 80),
    ])
    func weightTakesTypedUnits(text: String, units: UnitSystem, kilograms: Double) throws {
        let parsed = try Metric.weight.parse(text, unitSystem: units)
        #expect(abs(parsed - kilograms) < 1e-6, "\(text) → \(parsed)")
    }

    @Test(arguments: [
        ("", "Weight is required: it must not be empty or only spaces."),
        ("heavy", "Weight must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb."),
        ("72 stone", "Weight must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb."),
        ("11 st 14 lb", "Weight must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb."),
        ("1.9 kg", "Weight must be between 2 and 635 kg (4.4 and 1,400 lb)."),
        ("1401 lb", "Weight must be between 2 and 635 kg (4.4 and 1,400 lb)."),
        // A negative number is a value the range refuses, not a form to learn.
        ("-5", "Weight must be between 2 and 635 kg (4.4 and 1,400 lb)."),
        ("-heavy", "Weight must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb."),
    ])
    func aWeightOutsideTheRulesNamesFieldAndRule(text: String, message: String) {
        let error = #expect(throws: ValidationError.self) { try Metric.weight.parse(text, unitSystem: .metric) }
        #expect(error?.description == message)
        #expect(error?.field == .weight)
    }

    @Test func bodyFatIsAPercentageInEitherUnitSystem() throws {
        #expect(try Metric.bodyFat.parse("18.5", unitSystem: .imperial) == 18.5)
        #expect(try Metric.bodyFat.parse("18,5 %", unitSystem: .metric) == 18.5)
        #expect(try Metric.bodyFat.parse("18.5%", unitSystem: .metric) == 18.5)
        #expect(Metric.bodyFat.format(18.46, unitSystem: .imperial) == "18.5 %")
        #expect(throws: ValidationError.outOfRange(.bodyFat, rule: .allowedRange)) {
            try Metric.bodyFat.parse("76", unitSystem: .metric)
        }
        #expect(throws: ValidationError.outOfRange(.bodyFat, rule: .allowedRange)) {
            try Metric.bodyFat.parse("0.5 %", unitSystem: .metric)
        }
        #expect(throws: ValidationError.invalidFormat(.bodyFat, rule: .measurementText)) {
            try Metric.bodyFat.parse("18 kg", unitSystem: .metric)
        }
    }

    @Test func weightShowsToATenthInTheUnitSystemsUnit() {
        #expect(Metric.weight.format(72.44, unitSystem: .metric) == "72.4 kg")
        #expect(Metric.weight.format(72.574_779_2, unitSystem: .imperial) == "160.0 lb")
        #expect(Metric.weight.format(.nan, unitSystem: .imperial) == "nan lb")
        // The value shown is the value kept: typing it again changes nothing.
        let kept = 72.574_779_2
        let typed = try? Metric.weight.parse("160.0", unitSystem: .imperial)
        #expect(typed.map { Metric.weight.change(from: kept, to: $0, unitSystem: .imperial) } == .some(nil))
        #expect(Metric.weight.change(from: kept, to: 73, unitSystem: .metric) == 73)
    }

    @Test func aBoundShownRoundedIsTypedBackAsTheBound() throws {
        for units in [UnitSystem.metric, .imperial] {
            for metric in Metric.all {
                for bound in [metric.allowedRange.lowerBound, metric.allowedRange.upperBound] {
                    let shown = metric.format(bound, unitSystem: units)
                    let typed = try metric.parse(shown, unitSystem: units)
                    #expect(metric.format(typed, unitSystem: units) == shown, "\(metric) \(shown)")
                    #expect(metric.allowedRange.contains(typed))
                }
            }
        }
        #expect(try Metric.weight.parse("4.4 lb", unitSystem: .metric) == 2)
        #expect(try Metric.weight.parse("1400 lb", unitSystem: .metric) == 635)
    }

    @Test func heightKeepsItsOwnParsingAndMessages() throws {
        #expect(try Metric.height.parse("5'11\"", unitSystem: .metric) == Height.parse("5'11\"", unitSystem: .metric))
        #expect(Metric.height.format(180.34, unitSystem: .imperial) == "5 ft 11 in")
        #expect(
            throws: ValidationError.outOfRange(.height, rule: .allowedRange)
        ) {
            try Metric.height.parse("400", unitSystem: .metric)
        }
    }

    @Test func theTableFindsEachMetricByTypeAndName() {
        #expect(
            Metric.all.map(\.id) == [
                "height", "weight", "body-fat", "steps", "distance", "active-minutes", "calories-out", "water",
                "calories-in", "protein", "carbs", "fat", "sleep", "resting-heart-rate", "mood",
            ])
        // Every type the backend records: those logged here, and the BMI, derived here but kept as the
        // server holds it.
        #expect(Metric.recorded == Metric.all + [.recordedBMI])
        #expect(
            Set(Metric.recorded.map(\.type)) == [
                "weight", "height", "body_fat_percentage", "bmi", "steps", "calories_out", "distance_km",
                "active_minutes", "sleep_hours", "water_liters", "resting_heart_rate", "mood_score", "calories_in",
                "protein_g", "carbs_g", "fat_g",
            ])
        #expect(Metric.all.prefix(3).map(\.unit) == ["cm", "kg", "%"])
        for metric in Metric.all {
            #expect(Metric.ofType(metric.type) == metric)
            #expect(Metric.named(metric.id) == metric)
        }
        #expect(Metric.ofType("bmi") == .recordedBMI)
        #expect(Metric.named("bmi") == nil, "no command logs a BMI")
        #expect(Metric.all.allSatisfy(\.isLogged) && !Metric.recordedBMI.isLogged)
        #expect(!Metric.recordedBMI.takesGoals)
        #expect(Set(Metric.recorded.map(\.field)).count == Metric.recorded.count)
    }
}
