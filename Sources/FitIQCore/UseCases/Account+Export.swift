#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an export holds: a metric's history, or the BMI derived from the weights.
public enum ExportSeries: Sendable, Hashable {
    case metric(Metric)
    /// One row per weight entry: the weight ÷ (the height at its date)².
    case bmi

    /// Every series, in the order an export lists them.
    public static let all: [ExportSeries] = Metric.all.map(ExportSeries.metric) + [.bmi]

    /// The series `name` stands for: a backend type (`height`, `weight`, `body_fat_percentage`,
    /// `bmi`) or a command name (`body-fat`).
    public static func named(_ name: String) -> ExportSeries? {
        let name = name.trimmingWhitespace().lowercased()
        if name == "bmi" { return .bmi }
        return (Metric.ofType(name) ?? Metric.named(name)).map(ExportSeries.metric)
    }

    /// The backend's type name, the `metric` column.
    public var type: String {
        switch self {
        case .metric(let metric): metric.type
        case .bmi: "bmi"
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

    public init(loggedAt: Date, metric: String, value: Double, unit: String, source: String, id: String) {
        self.loggedAt = loggedAt
        self.metric = metric
        self.value = value
        self.unit = unit
        self.source = source
        self.id = id
    }
}

extension Account {
    /// Streams the rows of each of `series` logged from `since` to `until` (local days, both
    /// included), oldest first within each series, one history month at a time: a long history is
    /// never held whole. Values are in each metric's unit (cm, kg, %), or `units`' units when given.
    public func export(
        _ series: [ExportSeries], since: CalendarDate? = nil, until: CalendarDate? = nil, units: UnitSystem? = nil,
        _ body: (ExportRow) throws -> Void
    ) async throws {
        let zone = environment.timeZone
        let start = since?.instant(atHour: 0, in: zone) ?? .distantPast
        let end = until.map { $0.adding(days: 1).instant(atHour: 0, in: zone) } ?? .distantFuture
        let inRange: (ProgressEntry) -> Bool = { $0.loggedAt >= start && $0.loggedAt < end }
        for item in series {
            switch item {
            case .metric(let metric):
                try await store.forEachEntry(of: metric) { entry in
                    guard inRange(entry), entry.quantity.isFinite else { return }
                    let (value, unit) = metric.value(entry.quantity, in: units)
                    try body(
                        ExportRow(
                            loggedAt: entry.loggedAt, metric: metric.type, value: value, unit: unit,
                            source: entry.source.rawValue, id: AccountState.publicId(of: entry)))
                }
            case .bmi:
                // The heights are few beside the weights; each weight takes the newest height logged
                // no later than it (the profile's height before the first).
                var heights: [(at: Date, centimetres: Double)] = []
                try await store.forEachEntry(of: .height) { heights.append(($0.loggedAt, $0.quantity)) }
                let fallback = try await store.overview().state.profile?.heightCm
                var next = 0
                var height = fallback
                try await store.forEachEntry(of: .weight) { weight in
                    while next < heights.count, heights[next].at <= weight.loggedAt {
                        height = heights[next].centimetres
                        next += 1
                    }
                    guard inRange(weight), let height,
                        let value = BodyMassIndex.value(kilograms: weight.quantity, centimetres: height)
                    else { return }
                    try body(
                        ExportRow(
                            loggedAt: weight.loggedAt, metric: "bmi", value: value, unit: "kg/m²", source: "derived",
                            id: AccountState.publicId(of: weight)))
                }
            }
        }
    }
}
