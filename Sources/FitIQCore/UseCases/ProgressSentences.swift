#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The range a progress report covers, as the progress screen and plain mode's `trend` offer it.
public enum ProgressRange: Int, CaseIterable, Sendable {
    case fourWeeks, threeMonths, year, all

    /// How many days back it starts (`nil`: the whole history).
    public var days: Int? {
        switch self {
        case .fourWeeks: 28
        case .threeMonths: 91
        case .year: 365
        case .all: nil
        }
    }

    /// `4 weeks`, for the title and the rate.
    public var label: String {
        switch self {
        case .fourWeeks: "4 weeks"
        case .threeMonths: "3 months"
        case .year: "1 year"
        case .all: "all"
        }
    }

    /// The word plain mode and the commands take: `4w`, `3m`, `1y`, `all`.
    public var word: String {
        switch self {
        case .fourWeeks: "4w"
        case .threeMonths: "3m"
        case .year: "1y"
        case .all: "all"
        }
    }

    /// `over the last 4 weeks`.
    public var span: String {
        switch self {
        case .year: "over the last year"
        case .all: "over the whole history"
        default: "over the last \(label)"
        }
    }

    /// The first instant of the range, as of `now`.
    public func since(now: Date) -> Date? {
        days.map { now.addingTimeInterval(-Double($0) * 86_400) }
    }
}

extension ProgressReport {
    /// What the chart shows, as sentences: the latest reading, the trend and its weekly rate, the lowest
    /// and highest. The progress screen and plain mode say the same.
    public func sentences(range: ProgressRange, units: UnitSystem, timeZone: LocalZone) -> [String] {
        let show = { (value: Double) in series.format(value, unitSystem: units) }
        let day = { (entry: ProgressEntry) in CalendarDate(containing: entry.loggedAt, in: timeZone).description }
        guard let latest, let trend else { return ["No \(series.missingText) \(range.span)."] }
        var lines = ["Latest \(show(latest.quantity)) on \(day(latest))."]
        var sentence = "Trend \(show(trend))"
        if let weeklyRate {
            sentence += ", \(series.rateText(weeklyRate, unitSystem: units)) \(range.span)"
        }
        lines.append(sentence + ".")
        if let lowest, let highest {
            lines.append(
                "Lowest \(show(lowest.quantity)) on \(day(lowest)); highest \(show(highest.quantity)) on \(day(highest))."
            )
        }
        return lines
    }

    /// The sentences in one short line, for a screen with few rows: `78.0 kg · trend 78.0 kg, −0.2 kg/wk`.
    public func compactLine(units: UnitSystem) -> String? {
        guard let latest, let trend else { return nil }
        var line =
            "\(series.format(latest.quantity, unitSystem: units)) · trend \(series.format(trend, unitSystem: units))"
        if let weeklyRate {
            line += ", " + series.rateText(weeklyRate, unitSystem: units).replacing(" a week", with: "/wk")
        }
        return line
    }
}

extension GoalStatus {
    /// Where the trend stands against the goal, as sentences: how far, when it gets there at the
    /// current rate (or that it is flat or moving away), and, with a date, ahead of or behind the plan.
    /// Once reached, whether the trend is inside the goal's band.
    public func sentences(units: UnitSystem, today: CalendarDate) -> [String] {
        let show = { (value: Double) in metric.format(value, unitSystem: units) }
        let head = "Goal \(show(goal.target))" + (goal.by.map { " by \($0)" } ?? "")
        guard let trend, let distance else {
            return ["\(head): no \(metric.field.label.lowercased()) entries yet."]
        }
        let side = { (difference: Double) in difference > 0 ? "above" : "below" }
        if reached {
            let (low, high) = (band.lowerBound, band.upperBound)
            let bandText = "\(DecimalText.format(metric.value(low, in: units).value, places: 1))–\(show(high))"
            if band.contains(trend) {
                return ["\(head) reached: the trend, \(show(trend)), is inside the band \(bandText)."]
            }
            let outside = trend > high ? trend - high : trend - low
            return [
                "\(head) reached: the trend, \(show(trend)), is outside the band \(bandText), "
                    + "\(show(abs(outside))) \(side(outside)) it."
            ]
        }
        var lines = ["\(head): the trend, \(show(trend)), is \(show(abs(distance))) \(side(distance)) it."]
        let rateText = rate.map { MeasurementSeries.metric(metric).rateText($0, unitSystem: units) }
        switch direction {
        case .toward:
            if let predicted {
                lines.append("At \(rateText ?? "") it reaches the goal on \(predicted).")
            } else {
                lines.append("At \(rateText ?? "") the goal is more than two years away.")
            }
        case .flat: lines.append("The trend is flat: no date can be foreseen.")
        case .away: lines.append("The trend is moving away from the goal (\(rateText ?? "")).")
        case nil: lines.append("Too few readings to tell a rate.")
        }
        if let by = goal.by, let plan {
            if by < today {
                lines.append("The goal's date, \(by), has passed.")
            } else {
                let lead = (plan - trend) * ((goal.start ?? plan) - goal.target) < 0 ? "behind" : "ahead of"
                let gap = abs(trend - plan)
                lines.append(
                    show(gap) == show(0)
                        ? "The trend is on the plan for \(by)."
                        : "The trend is \(show(gap)) \(lead) the plan for \(by), which is at \(show(plan)) now.")
            }
        }
        return lines
    }
}

extension GoalStatus {
    /// Where the trend stands, in a few words for a screen with few rows: `goal 75.0 kg: 3.2 kg above,
    /// 2027-03-02`.
    public func compactLine(units: UnitSystem) -> String {
        let show = { (value: Double) in metric.format(value, unitSystem: units) }
        guard let trend, let distance else { return "goal \(show(goal.target))" }
        if reached { return "goal \(show(goal.target)): " + (band.contains(trend) ? "in band" : "out of band") }
        let side = distance > 0 ? "above" : "below"
        let when =
            switch direction {
            case .toward: predicted.map { ", \($0)" } ?? ", over 2 years"
            case .flat: ", flat"
            case .away: ", moving away"
            case nil: ""
            }
        let number = DecimalText.format(metric.value(abs(distance), in: units).value, places: 1)
        return "goal \(show(goal.target)): \(number) \(side)\(when)"
    }
}
