#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A series of values over time: a metric's history, or the BMI derived from the weights. What an
/// export holds and the progress view draws. The BMI entries the server records (``Metric/recordedBMI``)
/// are no part of either series: an export of `bmi` writes them after the derived rows.
public enum MeasurementSeries: Sendable, Hashable {
    case metric(Metric)
    /// One value per weight entry: the weight ÷ (the height at its date)².
    case bmi

    /// Every series, in the order an export lists them.
    public static let all: [MeasurementSeries] = Metric.all.map(MeasurementSeries.metric) + [.bmi]

    /// The series `name` stands for: a backend type (`height`, `weight`, `body_fat_percentage`,
    /// `bmi`) or a command name (`body-fat`).
    public static func named(_ name: String) -> MeasurementSeries? {
        let name = name.trimmingWhitespace().lowercased()
        if name == "bmi" { return .bmi }
        return (Metric.ofType(name) ?? Metric.named(name)).map(MeasurementSeries.metric)
    }

    /// The backend's type name, the `metric` column.
    public var type: String {
        switch self {
        case .metric(let metric): metric.type
        case .bmi: "bmi"
        }
    }

    /// The metric, when the series is one (not BMI).
    public var metric: Metric? {
        if case .metric(let metric) = self { metric } else { nil }
    }

    /// The least a chart's vertical range spans (1 for BMI).
    public var minimumChartSpan: Double {
        switch self {
        case .metric(let metric): metric.minimumChartSpan
        case .bmi: 1
        }
    }

    /// `value` as a person reads it in `unitSystem`: `72.4 kg`, `24.7`.
    public func format(_ value: Double, unitSystem: UnitSystem) -> String {
        switch self {
        case .metric(let metric): metric.format(value, unitSystem: unitSystem)
        case .bmi: DecimalText.shown(value, places: 1)
        }
    }

    /// `value` as a number in `units`' unit, with the unit's name (BMI is always kg/m²).
    public func value(_ value: Double, in units: UnitSystem?) -> (value: Double, unit: String) {
        switch self {
        case .metric(let metric): metric.value(value, in: units)
        case .bmi: (value, "kg/m²")
        }
    }
}

/// One row of an export.
public struct ExportRow: Sendable, Equatable {
    public var loggedAt: Date
    /// The backend's type name: `height`, `weight`, `body_fat_percentage`, `bmi`.
    public var metric: String
    public var value: Double
    /// `cm`, `kg`, `%`, `in`, `lb` or `kg/m²`.
    public var unit: String
    /// `manual`, `health`, `server`, or `derived` for a BMI.
    public var source: String
    /// The entry's id (the server's, else the local one); a BMI row has its weight's.
    public var id: String
    /// The entry's note, if any (empty for none).
    public var notes: String = ""
    /// The time-aware trend after this reading (``Trend``), in the row's unit: it runs over the whole
    /// history, the readings before the range included.
    public var trend: Double

    public init(
        loggedAt: Date, metric: String, value: Double, unit: String, source: String, id: String, trend: Double,
        notes: String = ""
    ) {
        self.notes = notes
        self.loggedAt = loggedAt
        self.metric = metric
        self.value = value
        self.unit = unit
        self.source = source
        self.id = id
        self.trend = trend
    }
}

extension Account {
    /// Streams the rows of each of `series` logged from `since` to `until` (local days, both
    /// included), oldest first within each series, one history month at a time: a long history is
    /// never held whole. Values are in each metric's unit (cm, kg, %), or `units`' units when given.
    public func export(
        _ series: [MeasurementSeries], since: CalendarDate? = nil, until: CalendarDate? = nil, units: UnitSystem? = nil,
        _ body: (ExportRow) throws -> Void
    ) async throws {
        let zone = environment.timeZone
        let start = since?.instant(atHour: 0, in: zone) ?? .distantPast
        let end = until.map { $0.adding(days: 1).instant(atHour: 0, in: zone) } ?? .distantFuture
        let inRange: (ProgressEntry) -> Bool = { $0.loggedAt >= start && $0.loggedAt < end }
        // A metric's entries as they are kept, each with the trend over the whole history.
        func entries(of metric: Metric) async throws {
            var trend = Trend()
            try await store.forEachEntry(of: metric) { entry in
                guard entry.quantity.isFinite else { return }
                let smoothed = trend.add(entry.quantity, at: entry.loggedAt)
                guard inRange(entry) else { return }
                let (value, unit) = metric.value(entry.quantity, in: units)
                try body(
                    ExportRow(
                        loggedAt: entry.loggedAt, metric: metric.type, value: value, unit: unit,
                        source: entry.source.rawValue, id: entry.publicId,
                        trend: metric.value(smoothed, in: units).value, notes: entry.notes ?? ""))
            }
        }
        for item in series {
            switch item {
            case .metric(let metric):
                try await entries(of: metric)
            case .bmi:
                var trend = Trend()
                try await forEachBodyMassIndex { weight, value in
                    let smoothed = trend.add(value, at: weight.loggedAt)
                    guard inRange(weight) else { return }
                    try body(
                        ExportRow(
                            loggedAt: weight.loggedAt, metric: "bmi", value: value, unit: "kg/m²", source: "derived",
                            id: weight.publicId, trend: (smoothed * 100).rounded() / 100))
                }
                // Then the BMI entries the server holds, as they were recorded: they are no part of the
                // derived series (source `derived`), and `import` reads them back.
                try await entries(of: .recordedBMI)
            }
        }
    }
}

extension Account {
    /// Calls `body` with each weight entry, oldest first, and its BMI: the weight ÷ (the newest height
    /// logged no later than it, else the profile's height)². The heights are read first (they are few
    /// beside the weights), then the weights one month at a time.
    func forEachBodyMassIndex(_ body: (ProgressEntry, Double) throws -> Void) async throws {
        var heights: [(at: Date, centimetres: Double)] = []
        try await store.forEachEntry(of: .height) { heights.append(($0.loggedAt, $0.quantity)) }
        var height = try await store.overview().state.profile?.heightCm
        var next = 0
        try await store.forEachEntry(of: .weight) { weight in
            while next < heights.count, heights[next].at <= weight.loggedAt {
                height = heights[next].centimetres
                next += 1
            }
            guard let height, let value = BodyMassIndex.value(kilograms: weight.quantity, centimetres: height)
            else { return }
            try body(weight, value)
        }
    }
}
