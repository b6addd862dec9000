import FitIQCore
import FitIQLocalization
import FitIQTUI
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An optional that `--json` writes as `null` when it has no value: the key is always there.
@propertyWrapper
struct Null<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// The machine-readable and human-readable forms of what commands print (docs/commands.md "JSON and CSV keys").
enum Output {
    /// `value` as indented JSON with sorted keys, the form every `--json` prints.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers, booleans and nulls only: encoding cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// A duration for people: `2.14 s`.
    static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        return DecimalText.format(Double(parts.seconds) + Double(parts.attoseconds) / 1e18, places: 2) + " s"
    }

    /// `profile show --json`: every key present, unknown values `null`.
    struct ProfileJSON: Encodable {
        @Null var name: String?
        @Null var bio: String?
        @Null var preferredUnitSystem: String?
        @Null var languageCode: String?
        @Null var dateOfBirth: String?
        @Null var heightCm: Double?
        @Null var weightKg: Double?
        @Null var weightLoggedAt: String?
        @Null var bodyFatPercent: Double?
        @Null var bodyFatLoggedAt: String?
        @Null var bmi: Double?
        @Null var biologicalSex: String?
        @Null var biologicalSexSource: String?
        let pendingChanges: Int
        let rejectedChanges: Int
        /// The goals set on this machine; `[]` when there are none.
        var goals: [GoalJSON] = []
    }

    /// One goal: `{metric, target, unit, by, setAt}`, the target in the metric's unit (kg, %).
    struct GoalJSON: Encodable {
        let metric: String
        let target: Double
        let unit: String
        @Null var by: String?
        let setAt: String

        init(_ goal: Goal, metric: Metric) {
            self.metric = metric.id
            target = goal.target
            unit = metric.unit
            by = goal.by?.description
            setAt = RFC3339.format(goal.setAt)
        }

        static func list(_ goals: Goals) -> [GoalJSON] {
            goals.known.compactMap { goal in goal.metric.map { GoalJSON(goal, metric: $0) } }
        }
    }

    /// The profile of `view`.
    static func profile(_ view: AccountView) -> ProfileJSON {
        let profile = view.profile
        let weight = view.latestEntry(of: .weight)
        let bodyFat = view.latestEntry(of: .bodyFat)
        return ProfileJSON(
            name: profile?.name, bio: profile?.bio, preferredUnitSystem: profile?.preferredUnitSystem.rawValue,
            languageCode: profile?.languageCode, dateOfBirth: profile?.dateOfBirth?.description,
            heightCm: profile?.heightCm, weightKg: weight?.quantity,
            weightLoggedAt: weight.map { RFC3339.format($0.loggedAt) },
            bodyFatPercent: bodyFat?.quantity, bodyFatLoggedAt: bodyFat.map { RFC3339.format($0.loggedAt) },
            bmi: view.bodyMassIndex?.value,
            biologicalSex: profile?.biologicalSex?.value.rawValue,
            biologicalSexSource: profile?.biologicalSex?.source.rawValue, pendingChanges: view.pendingCount,
            rejectedChanges: view.rejectedCount)
    }

    /// `profile show` for people: sanitized text, height in the user's units.
    static func profileText(_ view: AccountView, timeZone: LocalZone = .system, now: Date = Date()) -> String {
        guard let profile = view.profile else { return tr("No profile cached yet.") }
        let today = CalendarDate(containing: now, in: timeZone)
        let clean = TextSanitizer.sanitize
        let units = profile.preferredUnitSystem
        var rows: [(label: String, value: String)] = [
            (FieldLabel.name.text, clean(profile.name)),
            (FieldLabel.bio.text, clean(profile.bio ?? "")),
            (FieldLabel.unitSystem.text, units.rawValue),
            (FieldLabel.language.text, clean(profile.languageCode ?? "")),
            (
                FieldLabel.height.text,
                profile.heightCm.map { Height.format($0, unitSystem: units) } ?? ProfileSentences.notSet
            ),
            (FieldLabel.weight.text, latest(.weight, in: view, units: units, timeZone: timeZone)),
            (FieldLabel.bodyFat.text, latest(.bodyFat, in: view, units: units, timeZone: timeZone)),
            (FieldLabel.bmi.text, view.bodyMassIndex?.description ?? tr("not known (needs a weight and a height)")),
            (
                FieldLabel.dateOfBirth.text,
                profile.dateOfBirth.map {
                    tr("{day} (age {age})", ["day": $0.description, "age": String($0.years(until: today))])
                } ?? ProfileSentences.notSet
            ),
            (FieldLabel.biologicalSex.text, biologicalSexText(profile.biologicalSex)),
        ]
        if let imported = profile.healthSync.lastImport(in: timeZone) { rows.append((tr("Health data"), imported)) }
        if let health = profile.healthSync.healthDateOfBirth, health != profile.dateOfBirth {
            rows.append(("", tr("(health data says date of birth {day})", ["day": health.description])))
        }
        let pending = view.pendingCount
        let rejected = view.rejectedCount
        if pending > 0 {
            rows.append(
                (
                    tr("Pending"),
                    trn(
                        "{count} change not yet on the server", "{count} changes not yet on the server", count: pending)
                ))
        }
        if rejected > 0 {
            rows.append(
                (
                    tr("Rejected"),
                    trn(
                        "{count} change: run `fitiq-tui status`", "{count} changes: run `fitiq-tui status`",
                        count: rejected)
                ))
        }
        return labelled(rows)
    }

    /// Rows of a label and a value, the values in one column two spaces after the longest label (at
    /// least 16 columns, as English lays them out).
    static func labelled(_ rows: [(label: String, value: String)]) -> String {
        let width = max(14, rows.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        return rows.map { row in
            row.label + String(repeating: " ", count: width - DisplayWidth.of(row.label)) + row.value
        }.joined(separator: "\n")
    }

    /// The latest value of `metric` and its day: `72.4 kg on 2026-11-20`.
    static func latest(_ metric: Metric, in view: AccountView, units: UnitSystem, timeZone: LocalZone) -> String {
        guard let entry = view.latestEntry(of: metric) else { return tr("not logged yet") }
        let day = CalendarDate(containing: entry.loggedAt, in: timeZone)
        return ProfileSentences.value(metric.format(entry.quantity, unitSystem: units), on: day)
    }

    static func biologicalSexText(_ sex: SourcedBiologicalSex?) -> String {
        guard let sex else { return tr("not set — import an Apple Health export (fitiq-tui import) to set it") }
        return sex.value.shown + "  " + sex.source.shown
    }

    /// `status --json`.
    struct StatusJSON: Encodable {
        struct Rejection: Encodable {
            let change: String
            let message: String
        }

        let server: String
        let email: String
        let signedIn: Bool
        @Null var lastSyncAt: String?
        let pendingChanges: Int
        let pending: [Pending]
        let rejected: [Rejection]
        let conflicts: [Conflict]

        /// A change not yet acknowledged and not refused, with what holds it back.
        struct Pending: Encodable {
            let change: String
            @Null var lastError: String?
            /// `conflict`, `backoff`, `sending` or null (goes out at the next sync).
            @Null var hold: String?
            @Null var nextTryAt: String?
        }

        struct Conflict: Encodable {
            let field: String
            let local: String
            let server: String
        }
    }

    /// `status --json`; its sentences (what changed, why the last try failed) in English whatever the
    /// language, like every value `--json` prints.
    static func status(_ status: AccountStatus) -> StatusJSON {
        speaking(.english) { statusJSON(status) }
    }

    private static func statusJSON(_ status: AccountStatus) -> StatusJSON {
        StatusJSON(
            server: status.server, email: status.email, signedIn: status.signedIn,
            lastSyncAt: status.lastSyncAt.map(RFC3339.format), pendingChanges: status.pendingChanges,
            pending: status.changes.filter { $0.rejection == nil }.map { change in
                let hold: (name: String, until: Date?)? =
                    switch change.hold {
                    case .conflict: ("conflict", nil)
                    case .backoff(let until): ("backoff", until)
                    case .sending: ("sending", nil)
                    case nil: nil
                    }
                return StatusJSON.Pending(
                    change: change.summary, lastError: change.lastProblem?.description, hold: hold?.name,
                    nextTryAt: hold?.until.map(RFC3339.format))
            },
            rejected: status.changes.filter { $0.rejection != nil }.map {
                StatusJSON.Rejection(change: $0.summary, message: $0.rejection ?? "")
            },
            conflicts: status.conflicts.map {
                StatusJSON.Conflict(field: $0.field, local: $0.local, server: $0.server)
            })
    }

    static func statusText(_ status: AccountStatus, now: Date = Date()) -> String {
        let account =
            TextSanitizer.sanitize(status.email)
            + (status.signedIn ? "" : " " + tr("(signed out: run `fitiq-tui login`)"))
        var lines = [
            labelled([
                (tr("Server"), status.server), (tr("Account"), account),
                (tr("Last sync"), status.lastSyncAt.map(RFC3339.format) ?? tr("never")),
                (tr("Pending"), trn("{count} change", "{count} changes", count: status.pendingChanges)),
            ])
        ]
        for change in status.changes {
            if let rejection = change.rejection {
                lines.append(
                    "  "
                        + tr(
                            "rejected: {change}: {message}",
                            ["change": change.summary, "message": TextSanitizer.sanitize(rejection)]))
            } else {
                let notes = change.notes(now: now)
                let reason = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
                lines.append("  " + tr("pending:  {change}", ["change": change.summary + reason]))
            }
        }
        for conflict in status.conflicts {
            lines.append(
                "  "
                    + tr(
                        "conflict: {field}: here \"{local}\", on the server \"{server}\" (`fitiq-tui resolve {field} --keep-local` or `--take-server`)",
                        [
                            "field": conflict.field, "local": TextSanitizer.sanitize(conflict.local),
                            "server": TextSanitizer.sanitize(conflict.server),
                        ]))
        }
        return lines.joined(separator: "\n")
    }

    /// One entry of `height history --json` (and of the other metrics): the value under the metric's
    /// own key (`heightCm`, `weightKg`, `bodyFatPercent`).
    struct HistoryEntryJSON: Encodable {
        /// The server's id, or the local one while the entry is pending.
        let id: String
        let loggedAt: String
        let value: Double
        let valueKey: String
        let source: String
        let synced: Bool
        let notes: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: Key("id"))
            try container.encode(loggedAt, forKey: Key("loggedAt"))
            try container.encode(value, forKey: Key(valueKey))
            try container.encode(source, forKey: Key("source"))
            try container.encode(synced, forKey: Key("synced"))
            try container.encode(Null(wrappedValue: notes), forKey: Key("notes"))
        }
    }

    /// A JSON key chosen at run time.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func historyJSON(_ entries: [ProgressEntry], of metric: Metric) -> [HistoryEntryJSON] {
        entries.map {
            HistoryEntryJSON(
                id: $0.publicId, loggedAt: RFC3339.format($0.loggedAt), value: $0.quantity,
                valueKey: metric.valueKey, source: $0.source.rawValue, synced: $0.isSynced,
                notes: $0.notes.map { TextSanitizer.sanitize($0) })
        }
    }

    static func historyCSV(_ entries: [ProgressEntry], of metric: Metric) -> String {
        var lines = ["id,logged_at,\(metric.csvColumn),source,synced,notes"]
        for entry in entries {
            lines.append(
                "\(entry.publicId),\(RFC3339.format(entry.loggedAt)),\(format(entry.quantity)),"
                    + "\(entry.source.rawValue),\(entry.isSynced),"
                    + ExportText.csvField(TextSanitizer.sanitize(entry.notes ?? "")))
        }
        return lines.joined(separator: "\n")
    }

    /// The history for people, newest first: an entry a line with its day, time, value, source and note;
    /// a day's amount or a night lists each day's value, with its entries under it.
    static func historyText(_ entries: [ProgressEntry], of metric: Metric, units: UnitSystem, timeZone: LocalZone)
        -> String
    {
        guard !entries.isEmpty else {
            return metric.noEntriesYet
        }
        return HistoryLines.of(entries, metric: metric, units: units, timeZone: timeZone).map(\.text)
            .joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String {
        DecimalText.format(value, places: 2)
    }
}
