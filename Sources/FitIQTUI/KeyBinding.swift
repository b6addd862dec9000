import FitIQCore
import FitIQLocalization

/// What a key does: every action of the editor that a key starts.
enum KeyAction: Sendable, Equatable {
    // Anywhere.
    case quitNow, repaint, suspend, pressHint
    // The profile screen's form.
    case nextField, previousField, edit, save, toggleLower, syncNow, help, editBioExternally, importHealth
    case retryRejected, discardRejected, keepLocal, takeServer, undo, openList, enterList, quit, openProgress
    case scrollDetailsDown, scrollDetailsUp, focusClicked, selectClicked
    // The history list.
    case listDown, listUp, leaveListForward, leaveList, removeEntry, correctEntry
    // A field being edited; `typeText` names the keys a text field handles itself (no binding acts).
    case cancelEdit, confirmEdit, confirmAndSave, confirmAndMove, typeText
    // The progress screen.
    case leaveProgress, nextRange, previousRange, nextSeries, previousSeries, editGoal, toggleSummary
    case scrollTableUp, scrollTableDown
    // The Today screen.
    case openToday, leaveToday, todayDown, todayUp, logChosen, openChosenProgress, openChosenHistory
    // Boxes over the screen.
    case scrollHelpDown, scrollHelpUp, pageHelpDown, pageHelpUp, close
    case quitDiscarding, saveAndQuit, confirmDiscard, startImport, cancelImport, confirmImport, declineImport,
        confirmRemoval
    case confirmCorrection, confirmGoal, pickerUp, pickerDown, pickLanguage
    // The `:` command line.
    case openCommandLine, runCommand, completeCommand, recallEarlier, recallLater, closeCommandLine
    case openAccountLine
}

/// One row of the key table: the keys, where they apply, what they do, and how the footer and the
/// help name them. The table drives the key handling, the footer hints, the help screen and the
/// key table of docs/keys.md.
struct KeyBinding: Sendable {
    /// Where a binding applies; the help and docs/keys.md list them in this order.
    enum Place: String, Sendable, CaseIterable {
        /// The profile screen's form (no field is being edited).
        case form
        /// The history list has the focus; keys it does not bind go to the form's bindings.
        case list
        /// A field of the profile screen is being edited.
        case editing
        /// The progress screen.
        case progress
        /// The Today screen.
        case today
        /// A metric's entries listed on the Today screen; keys it does not bind do nothing.
        case todayHistory
        /// The `:` command line at the bottom.
        case commandLine
        /// Every screen and box, before anything else.
        case anywhere
        // The boxes over the screen.
        case help, quitPrompt, discardPrompt, importPrompt, importing, importPreview, importResult, removePrompt
        case correction, goalPrompt, languagePicker

        /// How the help and docs/keys.md head the place's keys.
        var title: String {
            switch self {
            case .anywhere: tr("Anywhere")
            case .form: tr("Profile")
            case .list: tr("History list")
            case .editing: tr("Editing a field")
            case .progress: tr("Progress screen")
            case .today: tr("Today screen")
            case .todayHistory: tr("Today: a metric's entries")
            case .commandLine: tr("Command line (:)")
            case .help: tr("Help")
            case .quitPrompt: tr("Quit with unsaved edits")
            case .discardPrompt: tr("Discard rejected changes")
            case .importPrompt: tr("Import: the file's path")
            case .importing: tr("Import running")
            case .importPreview: tr("Import: what was found")
            case .importResult: tr("Import done")
            case .removePrompt: tr("Remove an entry")
            case .correction: tr("Correct an entry")
            case .goalPrompt: tr("Set a goal")
            case .languagePicker: tr("Language list")
            }
        }
    }

    let keys: [Key]
    let place: Place
    /// When else it applies (the focus, the lower panel); always when `nil`.
    let when: (@Sendable (AppState) -> Bool)?
    let action: KeyAction
    /// The footer hint (`Tab move`), or `nil` when it has none.
    let hintPhrase: Phrase?
    /// What the help says it does.
    let helpPhrase: Phrase
    /// Any key the place binds to nothing else (a box that any other key closes).
    let isAnyOtherKey: Bool
    /// How the help names keys a field handles itself (``KeyAction/typeText``).
    let named: Phrase?

    init(
        _ keys: [Key], in place: Place = .form, when: (@Sendable (AppState) -> Bool)? = nil, _ action: KeyAction,
        hint: Phrase? = nil, help: Phrase, anyOtherKey: Bool = false, named: Phrase? = nil
    ) {
        self.keys = keys
        self.place = place
        self.when = when
        self.action = action
        self.hintPhrase = hint
        self.helpPhrase = help
        self.isAnyOtherKey = anyOtherKey
        self.named = named
    }

    /// The footer hint in the current language.
    var hint: String? { hintPhrase?.text }
    /// What the help says it does, in the current language.
    var help: String { helpPhrase.text }

    /// The keys as the help writes them: `Tab / ↓ / j`.
    var shownKeys: String {
        if let named { return named.text }
        let shown = keys.map(\.shown).joined(separator: " / ")
        guard isAnyOtherKey else { return shown }
        return shown.isEmpty ? tr("any other key") : shown + " / " + tr("any other key")
    }

    /// The same binding in another place.
    func placed(in place: Place) -> KeyBinding {
        KeyBinding(
            keys, in: place, when: when, action, hint: hintPhrase, help: helpPhrase, anyOtherKey: isAnyOtherKey,
            named: named)
    }

    func applies(to state: AppState) -> Bool {
        when?(state) ?? true
    }
}
