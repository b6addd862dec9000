import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The words the editor and the program both say about the profile and its changes: the profile
/// screen and `profile show`, the sync details and `status`, the editor's and plain mode's sign-in.
public enum ProfileSentences {
    /// A field that has no value: `not set`.
    public static var notSet: String { tr("not set") }

    /// A value and the day it was logged: `72.4 kg on 2026-11-20`.
    public static func value(_ value: String, on day: CalendarDate) -> String {
        tr("{value} on {day}", ["value": value, "day": day.description])
    }

    /// No change is waiting to be sent, none was refused.
    public static var everyChangeSent: String { tr("Every change is on the server.") }

    /// A change the server refused, with what it said.
    public static func rejected(_ message: String) -> String {
        tr("Rejected by the server: {message}", ["message": message])
    }

    /// The answer to a sign-in: `Signed in as ada@example.com.` (the address sanitized).
    public static func signedIn(as email: String) -> String {
        tr("Signed in as {email}.", ["email": TextSanitizer.sanitize(email)])
    }
}

extension BiologicalSexSource {
    /// Where the value came from, as the profile shows it beside the value.
    public var shown: String {
        switch self {
        case .health: tr("from health source")
        case .account: tr("from account — import health data to confirm")
        }
    }
}

extension HealthSyncState {
    /// When health data was last imported, and from which file: `imported 2026-11-20 from export.zip`;
    /// `nil` before the first import.
    public func lastImport(in timeZone: LocalZone) -> String? {
        guard let imported = lastHealthSyncAt else { return nil }
        let day = CalendarDate(containing: imported, in: timeZone).description
        return lastImportFileName.map {
            tr("imported {day} from {file}", ["day": day, "file": TextSanitizer.sanitize($0)])
        } ?? tr("imported {day}", ["day": day])
    }
}
