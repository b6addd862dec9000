import FitIQCore
import FitIQLocalization

extension BodyMassIndex.Category {
    /// The category as a person reads it, in the current language (`rawValue` is the English).
    public var shown: String {
        switch self {
        case .underweight: tr("underweight")
        case .healthy: tr("healthy weight")
        case .overweight: tr("overweight")
        case .obese: tr("obesity")
        }
    }

    /// The range it stands for, as a person reads it.
    public var range: String {
        switch self {
        case .underweight: tr("under {value}", ["value": DecimalText.decimal("18.5")])
        case .healthy: DecimalText.decimal("18.5") + "–" + DecimalText.decimal("24.9")
        case .overweight: "25–" + DecimalText.decimal("29.9")
        case .obese: tr("{value} and over", ["value": "30"])
        }
    }
}

extension BodyMassIndex: CustomStringConvertible {
    /// `23.4 · healthy weight (18.5–24.9)`, or `17.9 · adult ranges do not apply` under 20.
    public var description: String {
        let shown = DecimalText.shown(value, places: 1)
        if isUnderTwenty { return shown + " · " + tr("adult ranges do not apply") }
        guard let category else { return shown }
        return "\(shown) · \(category.shown) (\(category.range))"
    }
}

extension BiologicalSex {
    /// The word shown to people in the current language: `Female`, `Weiblich`.
    public var shown: String {
        switch self {
        case .male: tr("Male")
        case .female: tr("Female")
        case .other: tr("Other")
        }
    }
}

extension ProgressEntry.Source {
    /// The source as a person reads it, in the current language (`rawValue` is what JSON and CSV say).
    public var shown: String {
        switch self {
        case .manual: trc("entry source", "manual")
        case .health: trc("entry source", "health")
        case .server: trc("entry source", "server")
        case .import: trc("entry source", "import")
        case .withings: "Withings"
        case .samsungHealth: "Samsung Health"
        case .fitbit: "Fitbit"
        case .googleFit: "Google Fit"
        case .healthConnect: "Health Connect"
        case .garmin: "Garmin"
        case .libra: "Libra"
        case .renpho: "Renpho"
        }
    }
}

extension SummaryPeriod {
    /// `by week`, `by month`, as a title says it.
    public var byLabel: String {
        switch self {
        case .week: tr("by week")
        case .month: tr("by month")
        }
    }
}

extension MeasurementSeries {
    /// `Weight`, `BMI`.
    public var label: String {
        switch self {
        case .metric(let metric): metric.field.label
        case .bmi: FieldLabel.bmi.text
        }
    }

    /// A trend's weekly rate as people read it: `−0.4 kg a week`, `+0.2 kg a week`, and `±0.0 kg a
    /// week` for a rate that rounds to nothing (no `−0.0`).
    /// `short`: `−0.4 kg/wk`, for a line on a screen with few rows.
    public func rateText(_ rate: Double, unitSystem: UnitSystem, short: Bool = false) -> String {
        let (value, unit) = self.value(abs(rate), in: unitSystem)
        let number = DecimalText.format(value, places: 1)
        let sign = number == "0.0" ? "±" : rate < 0 ? "−" : "+"
        let amount = sign + DecimalText.decimal(number) + " " + unit
        return short ? tr("{amount}/wk", ["amount": amount]) : tr("{amount} a week", ["amount": amount])
    }

    /// What a range without readings of this series lacks: `weight entries`, and for BMI, weights
    /// and a height.
    public var missingText: String {
        switch self {
        case .metric(let metric): tr("{measurement} entries", ["measurement": metric.complement])
        case .bmi: tr("BMI values (BMI needs weights and a height)")
        }
    }
}
