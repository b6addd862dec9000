#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The importers' table: every format `import` reads, what each is recognised by, and what its files
/// leave open.
extension MeasurementCSV {
    /// The formats read: a row of the importers' table each (FitIQWords says what each is). The raw
    /// value is the name `--format` takes.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        /// fitiq-tui's own export: `logged_at,metric,value,unit,source,id`.
        case fitiq
        /// openScale's export: `"dateTime","weight","fat",…`; 0.0 is no value.
        case openScale = "openscale"
        /// wger's weight export or a plain `date,weight` file.
        case dateWeight = "wger"
        /// Withings Health Mate's `weight.csv` (`Date,"Weight (kg)","Fat mass (kg)",…`) or `height.csv`.
        case withings
        /// Samsung Health's `com.samsung.health.weight.<ts>.csv`: a line of metadata, then the header.
        case samsungHealth = "samsung-health"
        /// Libra's CSV (Android), versions 5 and 6: `#Units:` lines, `;`-separated.
        case libra
        /// Renpho's CSV: `Date, Time, Weight(kg), BMI, Body Fat(%),…`.
        case renpho
        /// Fitbit's `weight-YYYY-MM-DD.json` in Google Takeout.
        case fitbit
        /// Google Fit's `All Data/*.json` in Google Takeout.
        case googleFit = "google-fit"
        /// Garmin Connect's `*userBioMetrics.json`.
        case garmin
        /// Android Health Connect's export: a SQLite database (in a zip).
        case healthConnect = "health-connect"

        /// Where its readings come from, as the history keeps it (fitiq-tui's own export says it per row).
        public var source: ProgressEntry.Source {
            switch self {
            case .fitiq, .openScale, .dateWeight: .import
            case .withings: .withings
            case .samsungHealth: .samsungHealth
            case .libra: .libra
            case .renpho: .renpho
            case .fitbit: .fitbit
            case .googleFit: .googleFit
            case .garmin: .garmin
            case .healthConnect: .healthConnect
            }
        }

        /// Whether its files hold local times without a zone (read in the zone of the options).
        public var hasLocalTimes: Bool {
            [.openScale, .dateWeight, .withings, .libra, .renpho, .fitbit].contains(self)
        }

        /// Whether its files are JSON (``MeasurementJSON``) rather than CSV.
        public var isJSON: Bool { [.fitbit, .googleFit, .garmin].contains(self) }
    }

    /// Which part of a date comes first where a file writes `03/04/2024` (Renpho).
    public enum DateOrder: String, Sendable, Equatable, CaseIterable {
        /// Day, then month: `dmy`.
        case dayFirst = "dmy"
        /// Month, then day: `mdy`.
        case monthFirst = "mdy"
    }

    /// What a file leaves open: the unit of its weights, the zone of its local times, the order of
    /// its dates.
    public struct Options: Sendable {
        /// `kg` or `lb`; `nil` when the format or the file says.
        public var unit: String?
        public var zone: LocalZone
        public var dateOrder: DateOrder?

        public init(unit: String? = nil, zone: LocalZone, dateOrder: DateOrder? = nil) {
            self.unit = unit
            self.zone = zone
            self.dateOrder = dateOrder
        }

        /// Whether weights are in pounds, where the file does not say.
        var pounds: Bool { unit.map { ["lb", "lbs"].contains($0.lowercased()) } ?? false }
    }

    /// The format a header's `columns` (lower case, trimmed) are of, or `nil`.
    static func format(ofColumns columns: [String], libra: Bool) -> Format? {
        let has = { (name: String) in columns.contains(name) }
        if columns == ["logged_at", "metric", "value", "unit", "source", "id"] { return .fitiq }
        if columns.first == "datetime", has("weight") { return .openScale }
        if has("start_time"), has("weight") { return .samsungHealth }
        if has("date"), has("time"), has("weight(kg)") || has("weight(lb)") { return .renpho }
        if columns.first == "date", has("weight (kg)") || has("weight (lb)") || has("height (m)") || has("height (cm)")
        {
            return .withings
        }
        if columns.first == "date", has("weight"), libra || has("weight trend") { return .libra }
        if columns == ["date", "weight"] { return .dateWeight }
        return nil
    }

    /// The columns of a format's header that hold no reading fitiq-tui keeps (openScale's water, Libra's
    /// trend, Renpho's BMI, …).
    static func columnsLeftOut(_ columns: [String], of format: Format) -> [String] {
        let read: Set<String> =
            switch format {
            case .openScale: ["datetime", "weight", "fat"]
            case .samsungHealth: ["start_time", "time_offset", "weight", "body_fat"]
            case .renpho: ["date", "time", "weight(kg)", "weight(lb)", "body fat(%)"]
            case .withings:
                ["date", "weight (kg)", "weight (lb)", "fat mass (kg)", "fat mass (lb)", "height (m)", "height (cm)"]
            case .libra: ["date", "weight", "body fat"]
            default: Set(columns)
            }
        return columns.filter { !read.contains($0) && !$0.isEmpty }
    }
}
