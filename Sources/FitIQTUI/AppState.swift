import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything the terminal UI shows; changed only by ``update(_:_:)``.
public struct AppState: Sendable {
    /// The screen on show.
    public enum Screen: Sendable, Equatable {
        case signIn
        case profile
        /// One measurement's chart and trend (`p`).
        case progress
        /// Every metric's day (`t`, `:today`).
        case today
    }

    /// What the lower part of the profile screen shows.
    public enum Lower: Sendable, Equatable {
        case history
        case syncDetails
    }

    /// A box drawn over the screen that takes the keys while it is open.
    public enum Overlay: Sendable, Equatable {
        case help
        case quitPrompt
        case discardPrompt
        case languagePicker(filter: TextField, selection: Int)
        /// Asks for the path of a health export; `error` says why the last one failed.
        case importPrompt(path: TextField, error: String?)
        /// A health import is running; `fraction` of the file is read.
        case importing(path: TextField, fraction: Double?)
        /// What an import of another app's export found, before anything is written: Enter imports it,
        /// Esc cancels.
        case importPreview(path: TextField, lines: [String])
        /// What the finished import did; any key closes it.
        case importResult([String])
        /// Asks before removing the entry `id` of `metric`'s history (`summary` says which).
        case deleteEntryPrompt(Metric, id: String, summary: String)
        /// The new value of the entry `id` of `metric`'s history, typed in the user's units.
        case correctEntry(Metric, id: String, summary: String, value: TextField, error: String?)
        /// The goal of a metric, typed: a value, then a date if any (empty clears it).
        case goalPrompt(Metric, value: TextField, error: String?)
    }

    /// The state of background sync, as the title bar shows it.
    public enum Connection: Sendable, Equatable {
        case unknown
        case syncing
        case online
        case offline(String)
        case signedOut(String)
    }

    public var screen: Screen
    public var size: (width: Int, height: Int)
    public var now: Date
    public var timeZone: LocalZone
    public var server: String
    public var signIn = SignInForm()
    public var profile = ProfileForm()
    /// The account on show and its cached state.
    public var account: AccountView?
    public var connection: Connection = .unknown
    public var lower: Lower = .history
    public var overlay: Overlay?
    /// A one-line message at the bottom (what just happened), with whether it is an error.
    public var message: (text: String, isError: Bool)?
    public var shouldQuit = false
    /// Whether to show the `i` key (health import is available).
    public var canImportHealth = false
    /// The history entry chosen when the history list has the focus (newest first), else `nil`.
    public var historySelection: Int?
    /// The metric whose history the lower panel shows: the last measurement focused.
    public var historyMetric = Metric.height
    /// The progress screen's metric, range and data.
    public var progress = ProgressScreen()
    /// The Today screen's metrics and the row chosen.
    public var today = TodayScreen()
    /// The symbols charts are drawn with.
    public var graphics = ChartGraphics.braille
    /// The first line shown of the help and of the sync details when they are longer than the screen.
    public var helpScroll = 0
    public var detailsScroll = 0
    /// What the click being handled landed on (``handleMouse(_:_:)``), else `nil`.
    var clicked: ScreenTarget?
    /// The `:` command line while it is open: plain mode's commands (``PromptCommand``).
    public var commandLine: TextField?
    /// The lines run at the `:` line this session, oldest first, and the one recalled with ↑ (an index).
    public var commandHistory: [String] = []
    var commandRecall: Int?
    /// How the language is chosen (``localizer``).
    public var language = EditorLanguage()
    /// The emails of the accounts signed in on this machine on ``server``: what `:account` completes.
    public var knownAccounts: [String] = []

    public init(
        screen: Screen, size: (width: Int, height: Int), now: Date, timeZone: LocalZone, server: String,
        account: AccountView? = nil
    ) {
        self.screen = screen
        self.size = size
        self.now = now
        self.timeZone = timeZone
        self.server = server
        self.account = account
    }

    /// The smallest terminal the screens are laid out for; below it a "too small" screen shows.
    public static let minimumSize = (width: 40, height: 12)
    /// The width from which the Profile and Physical boxes stand side by side (below it they stack).
    public static let sideBySideWidth = 80

    /// Whether edits exist that have not been saved locally yet.
    public var hasUnsavedEdits: Bool { !profile.drafts.isEmpty || profile.editing != nil }
}

/// The sign-in and registration form; its fields are always in typing mode.
public struct SignInForm: Sendable, Equatable {
    /// The fields, in focus order.
    public enum Field: Int, CaseIterable, Sendable {
        case email, password, name, dateOfBirth

        var label: String {
            switch self {
            case .email: FieldLabel.email.text
            case .password: FieldLabel.password.text
            case .name: FieldLabel.name.text
            case .dateOfBirth: FieldLabel.dateOfBirth.text
            }
        }
    }

    public var registering = false
    public var focus: Field = .email
    public var fields: [Field: TextField] = Dictionary(uniqueKeysWithValues: Field.allCases.map { ($0, TextField("")) })
    public var errors: [Field: String] = [:]
    public var busy = false

    /// The fields on show: email and password, plus name and date of birth when registering.
    public var visibleFields: [Field] { registering ? Field.allCases : [.email, .password] }

    public func text(_ field: Field) -> String { fields[field]?.text ?? "" }
}

/// The profile screen's focus, the field being edited and the edits not saved yet.
public struct ProfileForm: Sendable, Equatable {
    public var focus: ProfileField = .name
    /// The field in edit mode and its editor.
    public var editing: (field: ProfileField, editor: TextField)? {
        get { editingField.map { ($0, editor) } }
        set {
            editingField = newValue?.field
            editor = newValue?.editor ?? TextField("")
        }
    }
    /// Confirmed edits not yet saved (Ctrl-S saves them): the core's form, shared with plain mode.
    public var edits = ProfileEdits()
    /// The drafts as the user typed them, by field.
    public var drafts: [ProfileField: String] {
        Dictionary(
            uniqueKeysWithValues: edits.drafts.compactMap { field, text in
                ProfileField(field).map { ($0, text) }
            })
    }
    /// Validation messages under the fields.
    public var errors: [ProfileField: String] = [:]
    private var editingField: ProfileField?
    private var editor = TextField("")

    public init() {}

    public static func == (lhs: ProfileForm, rhs: ProfileForm) -> Bool {
        lhs.focus == rhs.focus && lhs.editingField == rhs.editingField && lhs.editor == rhs.editor
            && lhs.edits == rhs.edits && lhs.errors == rhs.errors
    }
}

/// A field of the profile screen: the field table. Its label, the word plain mode and scripts name it
/// by, its form, its measurement, its typing limit and its help drive the editor's forms, plain mode's
/// `set`, `show` and `help`, and validation (``ProfileValues/problem(_:_:)``).
public enum ProfileField: Int, CaseIterable, Sendable, Hashable {
    case name, bio, unitSystem, language, height, weight, bodyFat, bmi, dateOfBirth, biologicalSex

    /// The core's field it is; `nil` for read-only fields.
    public var editable: EditableField? {
        switch self {
        case .name: .name
        case .bio: .bio
        case .unitSystem: .unitSystem
        case .language: .language
        case .height: .height
        case .weight: .weight
        case .bodyFat: .bodyFat
        case .bmi, .dateOfBirth, .biologicalSex: nil
        }
    }

    /// The screen's field for the core's `field`.
    public init?(_ field: EditableField) {
        guard let found = Self.allCases.first(where: { $0.editable == field }) else { return nil }
        self = found
    }

    /// The form it belongs to; `nil` for read-only fields.
    public var form: Form? {
        switch self {
        case .name, .bio, .unitSystem, .language: .metadata
        case .height, .weight, .bodyFat: .physical
        case .bmi, .dateOfBirth, .biologicalSex: nil
        }
    }

    /// The measurement it edits and whose history it shows; `nil` for other fields.
    public var metric: Metric? {
        switch self {
        case .height: .height
        case .weight: .weight
        case .bodyFat: .bodyFat
        default: nil
        }
    }

    /// The fields of each box, in focus order.
    static let metadataFields: [ProfileField] = [.name, .bio, .unitSystem, .language]
    static let physicalFields: [ProfileField] = [.height, .weight, .bodyFat, .bmi, .dateOfBirth, .biologicalSex]

    /// Its label (``FieldLabel``): `Date of birth`.
    public var label: String {
        switch self {
        case .name: FieldLabel.name.text
        case .bio: FieldLabel.bio.text
        case .unitSystem: FieldLabel.unitSystem.text
        case .language: FieldLabel.language.text
        case .height: FieldLabel.height.text
        case .weight: FieldLabel.weight.text
        case .bodyFat: FieldLabel.bodyFat.text
        case .bmi: FieldLabel.bmi.text
        case .dateOfBirth: FieldLabel.dateOfBirth.text
        case .biologicalSex: FieldLabel.biologicalSex.text
        }
    }

    /// The word plain mode's `set` names it by: `name`, `units`, `body-fat`, …
    public var name: String {
        switch self {
        case .name: "name"
        case .bio: "bio"
        case .unitSystem: "units"
        case .language: "language"
        case .height: "height"
        case .weight: "weight"
        case .bodyFat: "body-fat"
        case .bmi: "bmi"
        case .dateOfBirth: "date-of-birth"
        case .biologicalSex: "biological-sex"
        }
    }

    /// The field plain mode names `name` (any case).
    public static func named(_ name: String) -> ProfileField? {
        allCases.first { $0.name == name.lowercased() }
    }

    /// What the field holds and how it is typed, for the help.
    public var help: String {
        switch self {
        case .name: tr("your name, up to {limit} characters", ["limit": String(ProfileRules.nameLimit)])
        case .bio: tr("a few words about you, up to {limit} characters", ["limit": String(ProfileRules.bioLimit)])
        case .unitSystem: tr("metric or imperial: the units heights and weights are typed and shown in")
        case .language: tr("a language code such as en, pt-BR or es-419")
        case .height: tr("180.5 cm, 1.8 m, 5'11\" or 71 in; logged in the height history")
        case .weight: tr("72.4 kg, 160 lb or 11 st 4 lb; each save logs a reading")
        case .bodyFat: tr("a percentage such as 18.5; each save logs a reading")
        case .bmi: tr("derived from the latest weight and the height then; never typed")
        case .dateOfBirth: tr("set at registration; read-only")
        case .biologicalSex: tr("only from your health data (import it); read-only")
        }
    }

    /// The character limit while typing.
    var limit: Int? {
        switch self {
        case .name: ProfileRules.nameLimit
        case .bio: ProfileRules.bioLimit
        case .language: 10
        case .height, .weight, .bodyFat: 20
        default: nil
        }
    }
}

/// The two forms, each saved as its own request.
public enum Form: Sendable, Hashable {
    /// Name, bio, unit system, language: one `PUT /users/me`.
    case metadata
    /// Height, weight, body fat: a progress entry each (and `PATCH /users/me/physical` for height).
    case physical
}
