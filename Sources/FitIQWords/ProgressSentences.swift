import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ProgressRange {
    /// `4 weeks`, for the title and the rate.
    public var label: String {
        switch self {
        case .fourWeeks: tr("4 weeks")
        case .threeMonths: tr("3 months")
        case .year: tr("1 year")
        case .all: tr("all")
        }
    }

    /// `over the last 4 weeks`.
    public var span: String {
        switch self {
        case .fourWeeks: tr("over the last 4 weeks")
        case .threeMonths: tr("over the last 3 months")
        case .year: tr("over the last year")
        case .all: tr("over the whole history")
        }
    }
}

extension ProgressReport {
    /// What the chart shows, as sentences: the latest reading, the trend and its weekly rate, the lowest
    /// and highest. The progress screen and plain mode say the same.
    public func sentences(range: ProgressRange, units: UnitSystem, timeZone: LocalZone) -> [String] {
        let show = { (value: Double) in series.format(value, unitSystem: units) }
        let day = { (entry: ProgressEntry) in CalendarDate(containing: entry.loggedAt, in: timeZone).description }
        guard let latest, let trend else {
            return [tr("No {missing} {range}.", ["missing": series.missingText, "range": range.span])]
        }
        var lines = [tr("Latest {value} on {day}.", ["value": show(latest.quantity), "day": day(latest)])]
        if let weeklyRate {
            lines.append(
                tr(
                    "Trend {value}, {rate} {range}.",
                    [
                        "value": show(trend), "rate": series.rateText(weeklyRate, unitSystem: units),
                        "range": range.span,
                    ]))
        } else {
            lines.append(tr("Trend {value}.", ["value": show(trend)]))
        }
        if let lowest, let highest {
            lines.append(
                tr(
                    "Lowest {lowest} on {lowestDay}; highest {highest} on {highestDay}.",
                    [
                        "lowest": show(lowest.quantity), "lowestDay": day(lowest), "highest": show(highest.quantity),
                        "highestDay": day(highest),
                    ]))
        }
        return lines
    }

    /// The sentences in one short line, for a screen with few rows: `78.0 kg · trend 78.0 kg, −0.2 kg/wk`.
    ///
    /// - Returns: the line and shorter forms of it, longest first, for a screen to take the first that
    ///   fits (the latest value goes first, then the rate): never a line cut in the middle of a unit.
    public func compactLines(units: UnitSystem) -> [String] {
        guard let latest, let trend else { return [] }
        let latestText = series.format(latest.quantity, unitSystem: units) + " · "
        let trendText = tr("trend {value}", ["value": series.format(trend, unitSystem: units)])
        guard let weeklyRate else { return [latestText + trendText, trendText] }
        let withRate = trendText + ", " + series.rateText(weeklyRate, unitSystem: units, short: true)
        return [latestText + withRate, withRate, trendText]
    }
}

extension GoalStatus {
    /// Where the trend stands against the goal, as sentences: how far, when it gets there at the
    /// current rate (or that it is flat or moving away), and, with a date, ahead of or behind the plan.
    /// Once reached, whether the trend is inside the goal's band.
    public func sentences(units: UnitSystem, today: CalendarDate) -> [String] {
        let show = { (value: Double) in metric.format(value, unitSystem: units) }
        let head =
            goal.by.map { tr("Goal {target} by {day}", ["target": show(goal.target), "day": $0.description]) }
            ?? tr("Goal {target}", ["target": show(goal.target)])
        guard let trend, let distance else {
            return [
                tr(
                    "{goal}: no {measurement} entries yet.",
                    ["goal": head, "measurement": metric.complement])
            ]
        }
        if reached {
            let (low, high) = (band.lowerBound, band.upperBound)
            let bandText = "\(DecimalText.shown(metric.value(low, in: units).value, places: 1))–\(show(high))"
            if band.contains(trend) {
                return [
                    tr(
                        "{goal} reached: the trend, {trend}, is inside the band {band}.",
                        ["goal": head, "trend": show(trend), "band": bandText])
                ]
            }
            let outside = trend > high ? trend - high : trend - low
            let values = ["goal": head, "trend": show(trend), "band": bandText, "distance": show(abs(outside))]
            return [
                outside > 0
                    ? tr("{goal} reached: the trend, {trend}, is outside the band {band}, {distance} above it.", values)
                    : tr("{goal} reached: the trend, {trend}, is outside the band {band}, {distance} below it.", values)
            ]
        }
        let values = ["goal": head, "trend": show(trend), "distance": show(abs(distance))]
        var lines = [
            distance > 0
                ? tr("{goal}: the trend, {trend}, is {distance} above it.", values)
                : tr("{goal}: the trend, {trend}, is {distance} below it.", values)
        ]
        let rateText = rate.map { MeasurementSeries.metric(metric).rateText($0, unitSystem: units) } ?? ""
        switch direction {
        case .toward:
            if let predicted {
                lines.append(
                    tr("At {rate} it reaches the goal on {day}.", ["rate": rateText, "day": predicted.description]))
            } else {
                lines.append(tr("At {rate} the goal is more than two years away.", ["rate": rateText]))
            }
        case .flat: lines.append(tr("The trend is flat: no date can be foreseen."))
        case .away: lines.append(tr("The trend is moving away from the goal ({rate}).", ["rate": rateText]))
        case nil: lines.append(tr("Too few readings to tell a rate."))
        }
        if let by = goal.by, let plan {
            if by < today {
                lines.append(tr("The goal's date, {day}, has passed.", ["day": by.description]))
            } else {
                let behind = (plan - trend) * ((goal.start ?? plan) - goal.target) < 0
                let gap = abs(trend - plan)
                let values = ["gap": show(gap), "day": by.description, "plan": show(plan)]
                lines.append(
                    show(gap) == show(0)
                        ? tr("The trend is on the plan for {day}.", values)
                        : behind
                            ? tr("The trend is {gap} behind the plan for {day}, which is at {plan} now.", values)
                            : tr("The trend is {gap} ahead of the plan for {day}, which is at {plan} now.", values))
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
        let head = tr("goal {target}", ["target": show(goal.target)])
        guard let trend, let distance else { return head }
        if reached { return head + ": " + (band.contains(trend) ? tr("in band") : tr("out of band")) }
        let number = DecimalText.shown(metric.value(abs(distance), in: units).value, places: 1)
        let side =
            distance > 0 ? tr("{distance} above", ["distance": number]) : tr("{distance} below", ["distance": number])
        let when =
            switch direction {
            case .toward: ", " + (predicted.map(\.description) ?? tr("over 2 years"))
            case .flat: ", " + tr("flat")
            case .away: ", " + tr("moving away")
            case nil: ""
            }
        return head + ": " + side + when
    }
}

/// What the height's trend says of a child's or a teenager's growth.
public enum GrowthSentences {
    /// `Grew 6.0 cm a year over the last year.` (`2.4 in` in imperial), for a person under 21 with a
    /// height about a year back; `nil` otherwise.
    public static func sentence(
        heights: some Collection<ProgressEntry>, dateOfBirth: CalendarDate?, today: CalendarDate, units: UnitSystem
    ) -> String? {
        guard let rate = Growth.perYear(heights, dateOfBirth: dateOfBirth, today: today) else { return nil }
        let (value, unit) = Metric.height.value(rate, in: units)
        return tr(
            "Grew {value} a year over the last year.", ["value": DecimalText.shown(value, places: 1) + " " + unit])
    }
}
