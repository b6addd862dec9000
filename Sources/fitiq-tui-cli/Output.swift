import FitIQCore
import Foundation

/// The machine-readable and human-readable forms of what commands print (DESIGN.md "Machine-readable output").
enum Output {
    static func json(_ object: Any) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A duration for people: `2.14 s`.
    static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        return String(format: "%.2f s", Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    static func rfc3339(_ date: Date?) -> Any {
        guard let date else { return NSNull() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `profile show --json`: every key present, unknown values `null`.
    static func profile(_ state: AccountState) -> [String: Any] {
        let profile = state.profile
        return [
            "name": profile?.name ?? NSNull(), "bio": profile?.bio ?? NSNull(),
            "preferredUnitSystem": profile?.preferredUnitSystem.rawValue ?? NSNull(),
            "languageCode": profile?.languageCode ?? NSNull(),
            "dateOfBirth": profile?.dateOfBirth?.description ?? NSNull(),
            "heightCm": profile?.heightCm ?? NSNull(),
            "biologicalSex": profile?.biologicalSex?.value.rawValue ?? NSNull(),
            "biologicalSexSource": profile?.biologicalSex?.source.rawValue ?? NSNull(),
            "pendingChanges": state.pendingChangeCount, "rejectedChanges": state.rejectedChangeCount,
        ]
    }

    /// `profile show` for people: sanitized text, height in the user's units.
    static func profileText(_ state: AccountState) -> String {
        guard let profile = state.profile else { return "No profile cached yet." }
        let clean = TextSanitizer.sanitize
        let units = profile.preferredUnitSystem
        var lines = [
            "Name            \(clean(profile.name))",
            "Bio             \(clean(profile.bio ?? ""))",
            "Unit system     \(units.rawValue)",
            "Language        \(clean(profile.languageCode ?? ""))",
            "Height          \(profile.heightCm.map { Height.format($0, unitSystem: units) } ?? "not set")",
            "Date of birth   \(profile.dateOfBirth?.description ?? "not set")",
            "Biological sex  \(biologicalSexText(profile.biologicalSex))",
        ]
        if let health = profile.healthSync.healthDateOfBirth, health != profile.dateOfBirth {
            lines.append("                (health data says date of birth \(health))")
        }
        let pending = state.pendingChangeCount
        let rejected = state.rejectedChangeCount
        if pending > 0 { lines.append("Pending         \(plural(pending, "change")) not yet on the server") }
        if rejected > 0 { lines.append("Rejected        \(plural(rejected, "change")): run `fitiq-tui status`") }
        return lines.joined(separator: "\n")
    }

    static func biologicalSexText(_ sex: SourcedBiologicalSex?) -> String {
        guard let sex else { return "not set — import health data (fitiq-tui import-health) to set it" }
        switch sex.source {
        case .health: return "\(sex.value)  from health source"
        case .account: return "\(sex.value)  from account — import health data to confirm"
        }
    }

    /// `status --json`.
    static func status(_ status: AccountStatus) -> [String: Any] {
        [
            "server": status.server, "email": status.email, "signedIn": status.signedIn,
            "lastSyncAt": rfc3339(status.lastSyncAt), "pendingChanges": status.pendingChanges,
            "rejected": status.changes.filter { $0.rejection != nil }.map {
                ["change": $0.summary, "message": $0.rejection ?? ""]
            },
        ]
    }

    static func statusText(_ status: AccountStatus) -> String {
        var lines = [
            "Server          \(status.server)",
            "Account         \(TextSanitizer.sanitize(status.email))\(status.signedIn ? "" : " (signed out: run `fitiq-tui login`)")",
            "Last sync       \(status.lastSyncAt.map { rfc3339($0) as? String ?? "" } ?? "never")",
            "Pending         \(plural(status.pendingChanges, "change"))",
        ]
        for change in status.changes {
            if let rejection = change.rejection {
                lines.append("  rejected: \(change.summary): \(TextSanitizer.sanitize(rejection))")
            } else {
                let reason = change.lastError.map { " (last try: \(TextSanitizer.sanitize($0)))" } ?? ""
                lines.append("  pending:  \(change.summary)\(reason)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func historyJSON(_ entries: [ProgressEntry]) -> [[String: Any]] {
        entries.map {
            [
                "loggedAt": rfc3339($0.loggedAt), "heightCm": $0.quantity, "source": $0.source.rawValue,
                "synced": $0.isSynced,
            ]
        }
    }

    static func historyCSV(_ entries: [ProgressEntry]) -> String {
        var lines = ["logged_at,height_cm,source,synced"]
        for entry in entries {
            let time = rfc3339(entry.loggedAt) as? String ?? ""
            lines.append("\(time),\(format(entry.quantity)),\(entry.source.rawValue),\(entry.isSynced)")
        }
        return lines.joined(separator: "\n")
    }

    static func historyText(_ entries: [ProgressEntry], units: UnitSystem, timeZone: TimeZone) -> String {
        guard !entries.isEmpty else { return "No height entries yet." }
        return entries.map { entry in
            let day = CalendarDate(containing: entry.loggedAt, in: timeZone)
            let mark = entry.isSynced ? "" : "  (not synced yet)"
            return "\(day)  \(Height.format(entry.quantity, unitSystem: units))  \(entry.source.rawValue)\(mark)"
        }.joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
