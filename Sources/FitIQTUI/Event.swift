import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something that happened: a key, a resize, or the result of background work.
public enum Event: Sendable {
    case input(TerminalInput)
    /// The account's cached state changed (a save, a sync, another process).
    case accountChanged(AccountView)
    /// Background sync started or ended.
    case connection(AppState.Connection)
    /// Signing in or registering failed.
    case signInFailed(ShownError)
    /// A save was made locally, and the account as it now stands (`error` when it could not be): one
    /// event, so the form loses its draft marks in the frame that shows the change pending.
    case saved(SaveTarget, error: ShownError?, account: AccountView? = nil)
    /// A save found nothing new: nothing was written or queued.
    case nothingToSave(SaveTarget)
    /// The clock moved (for the title bar's time).
    case tick(Date)
    /// A health import moved on.
    case healthImport(HealthImportProgress)
    /// The external editor (`$VISUAL`/`$EDITOR`) opened for `field` came back.
    case externalEdit(ProfileField, ExternalEditOutcome)
    /// Something finished that the user should read (an undo, a removal, a correction).
    case notice(String, isError: Bool)
    /// The progress screen's data was read.
    case progressLoaded(ProgressHistory)
    /// The goals were read, or changed.
    case goalsLoaded(Goals)
    /// The Today screen's data was read.
    case todayLoaded([MetricToday])
    /// A metric's entries were read for its list on the Today screen.
    case entriesLoaded(LatestEntries)
    /// The editor now works on another account (`:account`), shown as it stands.
    case accountSwitched(AccountView)
    /// The emails of the accounts signed in on this machine on the editor's server.
    case accountsListed([String])
}

/// How editing a field in the user's own editor ended.
public enum ExternalEditOutcome: Sendable, Equatable {
    /// The editor saved this text.
    case edited(String)
    /// No editor is set, or it failed (the message says which); the field stays as it was.
    case failed(String)
}

/// How a health import started from the `i` key is getting on.
public enum HealthImportProgress: Sendable, Equatable {
    /// The share of the file read so far (`nil`: size unknown).
    case reading(Double?)
    /// It failed or was cancelled; nothing was imported.
    case failed(ShownError)
    /// Another app's export was read: what importing it would add, per file and per metric. Nothing is
    /// written until it is confirmed (``Effect/confirmImport``).
    case preview([String])
    /// It ended: what it did, one line per subject.
    case finished([String])
}

/// Work the UI asks for; the runner performs it and reports back with events.
public enum Effect: Sendable, Equatable {
    case signIn(email: String, password: String)
    case register(email: String, password: String, name: String, dateOfBirth: String)
    /// Save a form: the metadata (already validated), or a measurement the user typed (in the metric's
    /// unit, parsed once when the field was confirmed). ``Account/apply(_:sending:)`` carries it out.
    case save(ChangeRequest)
    /// Import the health export at this path (as typed; `~` allowed).
    case importHealth(path: String)
    case cancelImport
    /// Import what the preview showed.
    case confirmImport
    /// Drop what the preview showed: nothing is imported.
    case declineImport
    case syncNow
    case retryRejected
    /// Settle the conflict on `field`: this machine's value (`keepLocal`) or the server's.
    case resolveConflict(field: String, keepLocal: Bool)
    case discardRejected
    /// Paint the whole screen again (Ctrl-L, after the program was continued).
    case repaint
    /// Give the terminal back and stop until `fg` (Ctrl-Z).
    case suspend
    /// Open `text` in the user's editor (`$VISUAL`, else `$EDITOR`), for `field`.
    case editExternally(ProfileField, text: String)
    /// Undo the last saved change.
    case undo
    /// Read a series' whole history with its trend (each range is cut from it).
    case loadProgress(MeasurementSeries)
    /// Read every metric's day for the Today screen (``Account/today()``).
    case loadToday
    /// Read `metric`'s latest entries for its list (``Account/latestEntries(of:days:limit:)``).
    case loadEntries(Metric)
    /// Remove the entry of `metric`'s history with this id.
    case deleteEntry(Metric, id: String)
    /// Replace the value of the entry of `metric`'s history with this id (`value` in its unit).
    case correctEntry(Metric, id: String, value: Double)
    /// Set `metric`'s goal (`target` in its unit), or clear it.
    case setGoal(Metric, target: Double, by: CalendarDate?)
    case clearGoal(Metric)
    /// Work on the account `email` signed in on this machine from now on (``Accounts/account(email:)``).
    case switchAccount(email: String)
    case quit
}

/// What one save covers: the metadata form (one `PUT`), or one measurement.
public enum SaveTarget: Sendable, Equatable {
    case metadata
    case measurement(Metric)

    /// The form a save of `request` is for: the profile, or a measurement's field.
    public init(_ request: ChangeRequest) {
        switch request {
        case .measurement(let metric, _, _, _, _): self = .measurement(metric)
        default: self = .metadata
        }
    }

    /// The fields whose drafts the save took.
    var fields: [ProfileField] {
        switch self {
        case .metadata: ProfileField.metadataFields
        case .measurement(let metric): ProfileField.allCases.filter { $0.metric == metric }
        }
    }

    /// What the message line says once it is saved.
    var savedMessage: String {
        switch self {
        case .metadata: tr("Profile saved.")
        case .measurement(let metric): tr("{measurement} saved.", ["measurement": metric.field.label])
        }
    }
}
