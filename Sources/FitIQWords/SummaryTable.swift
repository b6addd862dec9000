import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Period summaries as a table people read: one row a period, values in the user's units to a tenth,
/// the unit named in the header. The `summary` command prints it, and the progress screen shows it.
public struct SummaryTable: Sendable, Equatable {
    public var header: [String]
    public var rows: [[String]]

    /// The table of `summaries` (oldest first) of `series`, in `units`.
    public init(_ summaries: [PeriodSummary], of series: MeasurementSeries, units: UnitSystem, by period: SummaryPeriod)
    {
        let unit = series.value(0, in: units).unit
        let number = { (value: Double) in
            DecimalText.shown(series.value(value, in: units).value, places: 1)
        }
        // A day's amount or a night: the average day and the period's total, the days counted.
        let byDay = series.metric.map { $0.kind != .reading } ?? false
        header =
            byDay
            ? [
                period == .week ? tr("week of") : tr("month"), tr("day {unit}", ["unit": unit]),
                tr("total {unit}", ["unit": unit]), tr("low"), tr("high"), tr("days"), tr("trend"), tr("change"),
            ]
            : [
                period == .week ? tr("week of") : tr("month"), tr("mean {unit}", ["unit": unit]), tr("low"),
                tr("high"), tr("readings"), tr("trend"), tr("change"),
            ]
        rows = summaries.map { summary in
            let change = summary.change.map { change in
                let text = number(abs(change))
                let isZero = DecimalText.format(series.value(abs(change), in: units).value, places: 1) == "0.0"
                return (isZero ? "±" : change < 0 ? "−" : "+") + text
            }
            return [
                period == .week ? summary.start.description : String(summary.start.description.prefix(7)),
                number(summary.mean),
            ] + (byDay ? [number(summary.total)] : []) + [
                number(summary.lowest), number(summary.highest), "\(summary.count)", number(summary.trend),
                change ?? "",
            ]
        }
    }

    /// The table as lines of text, columns right-aligned but the first, joined by two spaces; only the
    /// first `columns` columns.
    public func lines(columns: Int? = nil) -> [String] {
        let count = min(columns ?? header.count, header.count)
        let widths = (0..<count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            var line = (0..<count).map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
            // An empty last cell (the first row's change) leaves no spaces at the end.
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
