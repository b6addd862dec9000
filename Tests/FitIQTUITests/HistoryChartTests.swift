import FitIQCore
import FitIQLocalization
import Foundation
import Testing

@testable import FitIQTUI

struct HistoryChartTests {
    private static let utc = LocalZone.utc

    /// A height entry logged at noon UTC on `day` (`YYYY-MM-DD`).
    private static func entry(
        _ day: String, _ centimetres: Double, source: ProgressEntry.Source = .server, synced: Bool = true,
        hour: Int = 12
    ) throws -> ProgressEntry {
        let date = try #require(CalendarDate(parsing: day))
        return ProgressEntry(
            serverId: synced ? "srv-\(day)" : nil, quantity: centimetres, loggedAt: date.instant(atHour: hour, in: utc),
            source: source)
    }

    /// Four entries over 2024, newest first as the store keeps them.
    private static func year2024() throws -> [ProgressEntry] {
        [
            try entry("2024-12-31", 176, source: .manual, synced: false),
            try entry("2024-07-01", 175, source: .health),
            try entry("2024-04-01", 172),
            try entry("2024-01-01", 170),
        ]
    }

    private static func chart(
        _ entries: [ProgressEntry], width: Int, height: Int, units: UnitSystem = .metric,
        graphics: ChartGraphics = .ascii
    ) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        HistoryChart.render(
            entries, metric: .height, unitSystem: units, timeZone: utc, graphics: graphics, into: &buffer, x: 0, y: 0,
            width: width, height: height, style: .plain)
        return buffer
    }

    /// `lines` padded with spaces to `width` columns, for exact comparisons.
    private static func exactly(_ lines: [String], width: Int) -> CellBuffer {
        CellBuffer(lines: lines.map { $0 + String(repeating: " ", count: max(0, width - DisplayWidth.of($0))) })
    }

    // MARK: Chart

    /// The last chart drawn is kept for the next frame: whatever one of its inputs changes, the cells
    /// must be those a fresh drawing gives, never the kept ones.
    @Test func aKeptChartIsNeverShownForOtherInputs() throws {
        let year = try Self.year2024()
        let later = [try Self.entry("2025-02-01", 180)] + year
        let auckland = LocalZone.fixed(secondsEastOfUTC: 13 * 3_600)
        let samoa = LocalZone { _ in -13 * 3_600 }
        let steps:
            [(entries: [ProgressEntry], units: UnitSystem, zone: LocalZone, graphics: ChartGraphics, width: Int)] =
                [
                    (year, .metric, .utc, .ascii, 40), (year, .metric, .utc, .ascii, 40),
                    (later, .metric, .utc, .ascii, 40),
                    (year, .imperial, .utc, .ascii, 40), (year, .imperial, auckland, .ascii, 40),
                    (year, .imperial, samoa, .ascii, 40), (year, .imperial, samoa, .braille, 40),
                    (year, .imperial, samoa, .braille, 32), (year, .metric, .utc, .ascii, 40),
                ]
        for (index, step) in steps.enumerated() {
            var kept = CellBuffer(width: step.width + 2, height: 7)
            HistoryChart.render(
                step.entries, metric: .height, unitSystem: step.units, timeZone: step.zone, graphics: step.graphics,
                into: &kept, x: 1, y: 1, width: step.width, height: 5, style: .plain)
            var fresh = CellBuffer(width: step.width, height: 5)
            HistoryChart.draw(
                step.entries, metric: .height, unitSystem: step.units, timeZone: step.zone, graphics: step.graphics,
                into: &fresh, width: step.width, height: 5, style: .plain, total: nil)
            var expected = CellBuffer(width: step.width + 2, height: 7)
            expected.put(fresh, x: 1, y: 1)
            #expect(kept == expected, "step \(index):\n\(kept)\nnot\n\(expected)")
        }
        // The language too: the axis's month names.
        var english = CellBuffer(width: 30, height: 5)
        var german = english
        HistoryChart.render(
            year, metric: .height, unitSystem: .metric, timeZone: .utc, graphics: .ascii, into: &english, x: 0, y: 0,
            width: 30, height: 5, style: .plain)
        Localizer.$current.withValue(.pseudo) {
            HistoryChart.render(
                year, metric: .height, unitSystem: .metric, timeZone: .utc, graphics: .ascii, into: &german, x: 0,
                y: 0, width: 30, height: 5, style: .plain)
        }
        #expect(english != german)
    }

    /// Oldest first whatever order they come in; of two at the same instant, the one listed first last
    /// (it wins); another metric's entries and values that are not numbers left out.
    @Test func chronologicalOrderIsTheSameFromAnyOrder() throws {
        let newestFirst = try Self.year2024()
        let oldestFirst = Array(newestFirst.reversed())
        let expected = oldestFirst.map(\.quantity)
        #expect(HistoryChart.chronological(newestFirst, of: .height).map(\.quantity) == expected)
        #expect(HistoryChart.chronological(oldestFirst, of: .height).map(\.quantity) == expected)
        let shuffled = [newestFirst[2], newestFirst[0], newestFirst[3], newestFirst[1]]
        #expect(HistoryChart.chronological(shuffled, of: .height).map(\.quantity) == expected)

        let sameInstant = try Self.entry("2024-07-01", 180)
        var weight = try Self.entry("2024-05-01", 70)
        weight.type = Metric.weight.type
        let notANumber = try Self.entry("2024-06-01", .nan)
        let mixed = [sameInstant] + oldestFirst + [weight, notANumber]
        #expect(HistoryChart.chronological(mixed, of: .height).map(\.quantity) == [170, 172, 175, 180, 176])
    }

    @Test func zonesAreEqualWhenTheyAreTheSameZone() {
        let made = LocalZone { _ in 3_600 }
        #expect(made == made)
        #expect(made != LocalZone { _ in 3_600 })
        #expect(LocalZone.fixed(secondsEastOfUTC: 3_600) == .fixed(secondsEastOfUTC: 3_600))
        #expect(LocalZone.fixed(secondsEastOfUTC: 0) == .utc)
        #expect(LocalZone.fixed(secondsEastOfUTC: 3_600) != .utc)
    }

    @Test func drawsReadingsAsDotsAndTheTrendAsALineSpacedByTime() throws {
        // April 1 and July 1 fall a quarter and a half into the year, not at a third and two thirds.
        // Readings months apart each pull the trend almost all the way: it runs through them.
        let buffer = Self.chart(try Self.year2024(), width: 30, height: 5)
        #expect(
            buffer.lines
                == Self.exactly(
                    [
                        "         │              *****",
                        "175.0 cm ┤       *******",
                        "         │  *****",
                        "170.0 cm ┤**",
                        "          Jan 2024   Dec 2024",
                    ], width: 30
                ).lines)
        // Daily readings pull it a tenth of the way each: the dots stand apart from the line.
        let daily = try (0..<20).map { day in
            try Self.entry("2024-01-\(day < 9 ? "0" : "")\(day + 1)", day % 2 == 0 ? 170 : 174)
        }
        let noisy = Self.chart(daily.reversed(), width: 30, height: 6)
        #expect(noisy.lines.contains { $0.contains(".") } && noisy.lines.contains { $0.contains("*") }, "\(noisy)")
    }

    @Test func writesFullDatesWhenThereIsRoom() throws {
        let buffer = Self.chart(try Self.year2024(), width: 40, height: 6)
        // Between them, the months that fit, each at its 1st: June 1 is 152 days into the year.
        #expect(buffer.lines[5] == "          2024-01-01  Jun    2024-12-31 ")
        let wide = Self.chart(try Self.year2024(), width: 100, height: 6)
        // Wide: the legend in the middle, and the months around it.
        #expect(wide.lines[5].contains("2024-01-01    Mar     Apr    May   . readings  * trend     Sep    Oct    Nov"))
        #expect(buffer.lines[1].hasPrefix("175.0 cm ┤"))
        #expect(buffer.lines[4].hasPrefix("170.0 cm ┤*"))
    }

    /// The vertical axis is marked at round values of the user's units, labelled as values are shown.
    @Test(arguments: [
        (UnitSystem.metric, ["175.0 cm ┤", "170.0 cm ┤"]),
        (.imperial, ["5 ft 9 in ┤"]),
    ])
    func labelsTheAxisInTheUsersUnitsAtRoundValues(units: UnitSystem, ticks: [String]) throws {
        let buffer = Self.chart(try Self.year2024(), width: 36, height: 6, units: units)
        for tick in ticks {
            #expect(buffer.lines.contains { $0.hasPrefix(tick) }, "\(buffer.description)")
        }
        #expect(buffer.lines.filter { $0.contains("┤") }.count == ticks.count, "\(buffer.description)")
    }

    @Test func drawsEqualValuesAsAFlatLine() throws {
        let entries = [
            try Self.entry("2024-03-01", 180), try Self.entry("2024-02-01", 180), try Self.entry("2024-01-01", 180),
        ]
        // The range spans 2 cm around them: the line runs through the middle row.
        #expect(
            Self.chart(entries, width: 30, height: 4).lines
                == Self.exactly(
                    [
                        "         │",
                        "180.0 cm ┤*******************",
                        "         │",
                        "          Jan 2024   Mar 2024",
                    ], width: 30
                ).lines)
    }

    @Test func drawsOneEntry() throws {
        let buffer = Self.chart([try Self.entry("2024-05-01", 180)], width: 30, height: 4)
        #expect(buffer.lines[1] == "180.0 cm ┤*                   ")
        #expect(buffer.lines[3].hasPrefix("          2024-05-01"))
    }

    /// The demo's weekly heights vary by 0.4 cm: the range spans 2 cm, so they keep to the middle rows
    /// instead of filling the panel like a wall.
    @Test(arguments: ChartGraphics.allCases)
    func smallNoiseKeepsToTheMiddleOfAtLeastTwoCentimetres(graphics: ChartGraphics) throws {
        let start = try #require(CalendarDate(parsing: "2024-01-01")).instant(atHour: 8, in: Self.utc)
        let entries = (0..<52).reversed().map { week in
            ProgressEntry(
                serverId: "\(week)", quantity: 180 + [0, 0.2, 0.4, 0.1][week % 4],
                loggedAt: start.addingTimeInterval(Double(week) * 7 * 86_400), source: .server)
        }
        let buffer = Self.chart(entries, width: 60, height: 11, graphics: graphics)
        #expect(buffer.lines.contains { $0.hasPrefix("181.0 cm ┤") }, "\(buffer.description)")
        #expect(buffer.lines.contains { $0.hasPrefix("179.5 cm ┤") }, "\(buffer.description)")
        let marked = (0..<10).filter { row in buffer.lines[row].dropFirst(10).contains { $0 != " " } }
        #expect(marked.count <= 3, "\(buffer.description)")
        #expect(marked.allSatisfy { (3...6).contains($0) }, "\(buffer.description)")
    }

    @Test func saysWhenThereIsNoHistory() {
        #expect(
            Self.chart([], width: 30, height: 5) == Self.exactly(["No height history yet.", "", "", "", ""], width: 30))
        #expect(Self.chart([], width: 10, height: 1) == Self.exactly(["No height "], width: 10))
    }

    @Test func ignoresOtherTypesAndUnusableValues() throws {
        var weight = try Self.entry("2024-06-01", 80)
        weight.type = "weight"
        let broken = try Self.entry("2024-06-02", .nan)
        #expect(Self.chart([weight, broken], width: 30, height: 2).reads(["No height history yet.", ""]))
        #expect(
            Self.chart([weight, try Self.entry("2024-05-01", 180)], width: 30, height: 3).lines[1].hasPrefix(
                "180.0 cm ┤*"))
    }

    @Test func summarisesInARectangleTooSmallForAChart() throws {
        let entries = try Self.year2024()
        #expect(
            Self.chart(entries, width: 60, height: 2)
                == Self.exactly(["176.0 cm on 2024-12-31 (4 entries since 2024-01-01)", ""], width: 60))
        #expect(Self.chart(entries, width: 12, height: 3).reads(["176.0 cm on", "", ""]))
        #expect(Self.chart([try Self.entry("2024-05-01", 180)], width: 40, height: 1).reads(["180.0 cm on 2024-05-01"]))
    }

    @Test(arguments: [(1.7e308, -1.7e308), (1e308, 0.0), (Double.greatestFiniteMagnitude, 1.0)] as [(Double, Double)])
    func heightsTooFarApartForADoubleAreDrawnNotTrappedOn(high: Double, low: Double) throws {
        let entries = [try Self.entry("2024-07-01", high), try Self.entry("2024-01-01", low)]
        for units in [UnitSystem.metric, .imperial] {
            // Wide enough for the labels of such heights (300 digits), so the bars are drawn.
            let buffer = Self.chart(entries, width: 400, height: 6, units: units)
            #expect(buffer.description.contains("2024-01-01"), "\(buffer.description)")
        }
    }

    @Test(arguments: [
        // x, y, width, height of the rectangle inside a 40 × 8 buffer
        (5, 2, 0, 0), (5, 2, 1, 1), (5, 2, 5, 1), (5, 2, 12, 2), (5, 2, 30, 1), (5, 2, 18, 5), (5, 2, 30, 2),
        (5, 2, 30, 4), (0, 0, 40, 8), (35, 5, 10, 10), (-3, -2, 20, 6), (5, 2, -4, 3),
    ])
    func neverDrawsOutsideItsRectangle(x: Int, y: Int, width: Int, height: Int) throws {
        let entries = try Self.year2024()
        typealias Draw = (
            [ProgressEntry], UnitSystem, LocalZone, inout CellBuffer, Int, Int, Int, Int, CellStyle
        ) -> Void
        let chart: Draw = {
            HistoryChart.render(
                $0, metric: .height, unitSystem: $1, timeZone: $2, into: &$3, x: $4, y: $5, width: $6, height: $7,
                style: $8)
        }
        let list: Draw = {
            HistoryChart.list(
                $0, metric: .height, unitSystem: $1, timeZone: $2, into: &$3, x: $4, y: $5, width: $6, height: $7,
                style: $8)
        }
        for draw in [chart, list] {
            // Given a buffer full of markers
            var buffer = CellBuffer(lines: Array(repeating: String(repeating: "#", count: 40), count: 8))
            // When the chart or the list is drawn into a rectangle of any size, even partly off the buffer
            draw(entries, .imperial, Self.utc, &buffer, x, y, width, height, .plain)
            // Then every cell outside it still holds its marker, and none inside does
            for row in 0..<8 {
                for column in 0..<40 {
                    let inside = (x..<x + max(0, width)).contains(column) && (y..<y + max(0, height)).contains(row)
                    #expect((buffer[column, row].character == "#") != inside, "cell \(column), \(row)")
                }
            }
        }
    }

    /// Every metric's chart spans at least its minimum (2 cm, 1 kg, 1 %) around readings 0.2 apart.
    @Test(arguments: [
        (Metric.height, "181.0 cm", "180.0 cm"), (.weight, "72.5 kg", "72.0 kg"), (.bodyFat, "18.5 %", "18.0 %"),
    ])
    func theRangeSpansAtLeastTheMetricsMinimum(metric: Metric, top: String, middle: String) throws {
        let value = metric == .height ? 180.0 : metric == .weight ? 72.0 : 18.0
        let entries = try [Self.entry("2024-03-01", value + 0.2), Self.entry("2024-01-01", value)].map { entry in
            var entry = entry
            entry.type = metric.type
            return entry
        }
        var buffer = CellBuffer(width: 40, height: 6)
        HistoryChart.render(
            entries, metric: metric, unitSystem: .metric, timeZone: Self.utc, graphics: .ascii, into: &buffer, x: 0,
            y: 0, width: 40, height: 6, style: .plain)
        // Ticks two rows apart of 5 rows of plot: the rows span twice their difference, the minimum.
        #expect(buffer.lines[0].hasPrefix(top + " ┤"), "\(buffer.description)")
        #expect(buffer.lines[2].hasPrefix(middle + " ┤"), "\(buffer.description)")
    }

    @Test func chartsAThousandEntriesOverAYear() throws {
        let start = try #require(CalendarDate(parsing: "2024-01-01")).instant(atHour: 0, in: Self.utc)
        // Newest first, every 8.76 hours, drifting up and down by a few centimetres.
        let entries = (0..<1_000).reversed().map { (index: Int) -> ProgressEntry in
            let step = Double(index)
            let drift: Double = 3 * sin(step / 60) + step / 250
            return ProgressEntry(
                serverId: "\(index)", quantity: 170 + drift, loggedAt: start.addingTimeInterval(step * 31_536),
                source: .health)
        }
        let buffer = Self.chart(entries, width: 80, height: 10)
        // The trend runs the whole width: every column of the plot holds a mark of it.
        for column in 11..<79 {
            #expect((0..<9).contains { buffer[column, $0].character == "*" }, "column \(column)")
        }
        #expect(buffer.lines[9].hasSuffix("2024-12-30 "))
        #expect(buffer.lines[9].contains("2024-01-01"))
    }

    // MARK: List

    @Test func listsTheLatestEntriesWithTheirSourceAndSyncState() throws {
        var buffer = CellBuffer(width: 40, height: 3)
        HistoryChart.list(
            try Self.year2024(), metric: .height, unitSystem: .metric, timeZone: Self.utc, into: &buffer, x: 0, y: 0,
            width: 40,
            height: 3, style: .plain)
        #expect(
            buffer
                == Self.exactly(
                    [
                        "2024-12-31  176.0 cm  manual  (pending)",
                        "2024-07-01  175.0 cm  health",
                        "2024-04-01  172.0 cm  server",
                    ], width: 40))
    }

    @Test func listsInImperialAndInTheGivenTimeZone() throws {
        let tokyo = LocalZone(try #require(TimeZone(identifier: "Asia/Tokyo")))
        var buffer = CellBuffer(width: 40, height: 4)
        // 18:00 UTC on December 31 is already January 1 in Tokyo.
        HistoryChart.list(
            [try Self.entry("2024-12-31", 180.3, source: .manual, hour: 18), try Self.entry("2024-06-01", 170)],
            metric: .height, unitSystem: .imperial, timeZone: tokyo, into: &buffer, x: 0, y: 0, width: 40, height: 4,
            style: .plain)
        #expect(
            buffer.reads([
                "2025-01-01  5 ft 11 in  manual",
                "2024-06-01   5 ft 7 in  server",
                "",
                "",
            ]))
    }

    @Test func listSaysWhenThereIsNoHistory() {
        var buffer = CellBuffer(width: 30, height: 2)
        HistoryChart.list(
            [], metric: .height, unitSystem: .metric, timeZone: Self.utc, into: &buffer, x: 0, y: 0, width: 30,
            height: 2, style: .plain)
        #expect(buffer.reads(["No height history yet.", ""]))
    }
}
