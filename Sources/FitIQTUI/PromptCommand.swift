import FitIQCore
import FitIQLocalization
import FitIQWords

/// One line of plain mode's language, parsed: what plain mode's `fitiq>` prompt and the editor's `:`
/// line both read (one parser, one set of sentences for its mistakes). Each front end carries it out
/// its own way: plain mode writes sentences, the editor changes its screen.
public enum PromptCommand: Sendable, Equatable {
    case show
    /// `set FIELD VALUE`: an edit of the form, as typing it would be (checked when it is set).
    case set(ProfileField, String)
    case save, sync, status, undo, help, quit
    /// `history [METRIC]` (heights when none is named).
    case history(Metric)
    /// `trend [SERIES] [RANGE] [--by week|month]`.
    case trend(MeasurementSeries, ProgressRange, SummaryPeriod?)
    /// `goal`: where every goal stands.
    case goals
    /// `goal METRIC`: where that goal stands.
    case goal(Metric)
    /// `goal METRIC VALUE [DATE]`, each as typed: checked when set, in the user's units (a metric that
    /// takes no goal is said then, with the ones that do).
    case setGoal(String, target: String, by: String?)
    /// `goal METRIC clear`.
    case clearGoal(Metric)
    /// `import PATH`.
    case importFile(String)
    /// `today`: every metric's day.
    case today
    /// `log METRIC VALUE [--date DAY] [--at TIME] [--note TEXT]`, the value as typed (parsed in the
    /// user's units when it is logged).
    case log(Metric, value: String, when: LogWhen)
    /// `account EMAIL`: work on another account signed in on this machine.
    case account(String)

    /// The command words, in the order `help` lists them.
    public static let words = [
        "show", "set", "save", "sync", "status", "today", "log", "history", "trend", "goal", "import", "undo",
        "account", "help", "quit",
    ]

    /// `line` parsed, or what is wrong with it.
    public static func parse(_ line: String) -> Result<PromptCommand, PromptProblem> {
        let trimmed = line.trimmingWhitespace()
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first else { return .failure(.empty) }
        let rest = parts.count > 1 ? parts[1].trimmingWhitespace() : ""
        switch first.lowercased() {
        case "show": return .success(.show)
        case "set":
            let words = rest.split(separator: " ", maxSplits: 1).map(String.init)
            guard let name = words.first, let field = ProfileField.named(name) else { return .failure(.setWhat) }
            return .success(.set(field, words.count > 1 ? words[1] : ""))
        case "save": return .success(.save)
        case "sync": return .success(.sync)
        case "status": return .success(.status)
        case "undo": return .success(.undo)
        case "help": return .success(.help)
        case "quit", "exit": return .success(.quit)
        case "history":
            let name = rest.lowercased()
            guard let metric = name.isEmpty ? .height : Metric.named(name) else { return .failure(.historyWhich) }
            return .success(.history(metric))
        case "trend": return trend(rest)
        case "goal": return goal(rest)
        case "import":
            return rest.isEmpty ? .failure(.importWhich) : .success(.importFile(rest))
        case "today": return .success(.today)
        case "log": return log(rest)
        case "account":
            return rest.isEmpty || rest.contains(" ") ? .failure(.accountWhich) : .success(.account(rest))
        default:
            return .failure(.notACommand(first))
        }
    }

    private static func trend(_ arguments: String) -> Result<PromptCommand, PromptProblem> {
        var words = arguments.split(separator: " ").map { $0.lowercased() }
        var period: SummaryPeriod?
        if let by = words.firstIndex(of: "--by") {
            guard by + 1 < words.count, let chosen = SummaryPeriod(rawValue: words[by + 1]) else {
                return .failure(.trendGrouping)
            }
            period = chosen
            words.removeSubrange(by...(by + 1))
        }
        let unknown = words.filter { series($0) == nil && range($0) == nil }
        guard unknown.isEmpty else { return .failure(.trendWhich(unknown.joined(separator: " "))) }
        return .success(
            .trend(
                words.lazy.compactMap(series).first ?? .metric(.weight),
                words.lazy.compactMap(range).first ?? .fourWeeks,
                period))
    }

    private static func goal(_ arguments: String) -> Result<PromptCommand, PromptProblem> {
        var words = arguments.split(separator: " ").map(String.init)
        guard let name = words.first else { return .success(.goals) }
        words.removeFirst()
        if words.isEmpty || words.map({ $0.lowercased() }) == ["clear"] {
            guard let metric = Metric.named(name), metric.takesGoals else { return .failure(.goalWhich) }
            return .success(words.isEmpty ? .goal(metric) : .clearGoal(metric))
        }
        // A date, when the last word is one; the rest is the value, typed as the metric is.
        let date = words.count > 1 && words.last?.contains("-") == true ? words.last : nil
        let target = (date == nil ? words : words.dropLast()).joined(separator: " ")
        return .success(.setGoal(name, target: target, by: date))
    }

    /// `log water 0.25 l --at 09:00 --note after the run`: the options may come in any order after the
    /// metric; a note runs to the next option or the end.
    private static func log(_ arguments: String) -> Result<PromptCommand, PromptProblem> {
        var words = arguments.split(separator: " ").map(String.init)
        guard let name = words.first,
            let metric = Metric.named(name.lowercased()) ?? Metric.ofType(name.lowercased()), metric.isLogged
        else { return .failure(.logWhich) }
        words.removeFirst()
        var value: [String] = []
        var when = LogWhen()
        var index = 0
        while index < words.count {
            let word = words[index]
            guard ["--date", "--at", "--note"].contains(word) else {
                value.append(word)
                index += 1
                continue
            }
            var end = index + 1
            while end < words.count, !["--date", "--at", "--note"].contains(words[end]) { end += 1 }
            let text = words[(index + 1)..<end].joined(separator: " ")
            switch word {
            case "--date": when.day = text
            case "--at": when.time = text
            default: when.note = text
            }
            index = end
        }
        guard !value.isEmpty else { return .failure(.logValue(metric)) }
        return .success(.log(metric, value: value.joined(separator: " "), when: when))
    }

    /// The series `trend` names by a command word: `height`, `weight`, `body-fat`, `bmi`.
    public static func series(_ word: String) -> MeasurementSeries? {
        word == "bmi" ? .bmi : Metric.named(word).map(MeasurementSeries.metric)
    }

    static func range(_ word: String) -> ProgressRange? {
        ProgressRange.allCases.first { $0.word == word }
    }

    /// What a word at the end of `line` can become (Tab): command words first, then field names after
    /// `set`, metrics after `history`, `trend` and `goal`, ranges and `--by` after a trend's metric,
    /// `week` and `month` after `--by`, the emails of `accounts` after `account`. Case is ignored; the
    /// candidates are in their order of use.
    public static func completions(of line: String, accounts: [String] = []) -> [String] {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let typed = (words.popLast() ?? "").lowercased()
        let before = words.filter { !$0.isEmpty }.map { $0.lowercased() }
        let candidates: [String]
        switch (before.first, before.count) {
        case (nil, _): candidates = Self.words
        case ("set"?, 1): candidates = ProfileField.allCases.filter { $0.editable != nil }.map(\.name)
        case ("history"?, 1), ("log"?, 1): candidates = Metric.all.map(\.id)
        case ("log"?, _): candidates = ["--date", "--at", "--note"]
        case ("goal"?, 1): candidates = Goal.metrics.map(\.id)
        case ("goal"?, 2): candidates = ["clear"]
        case ("account"?, 1): candidates = accounts
        case ("trend"?, _):
            if before.last == "--by" {
                candidates = SummaryPeriod.allCases.map(\.rawValue)
            } else {
                let metrics = Metric.all.map(\.id) + ["bmi"]
                let named = before.dropFirst().contains { series($0) != nil }
                candidates = (named ? [] : metrics) + ProgressRange.allCases.map(\.word) + ["--by"]
            }
        default: candidates = []
        }
        return candidates.filter { $0.lowercased().hasPrefix(typed) }
    }

    /// What `help` says, a line per command (plain mode writes them; the editor's help lists them).
    public static var helpLines: [String] {
        [
            tr("show writes your profile."),
            tr("set FIELD VALUE changes a field; save saves. The fields:"),
        ]
            + ProfileField.allCases.map { field in "  \(field.name): \(field.help)\(field.form == nil ? "" : ".")" }
            + [
                tr(
                    "save saves the changes on this machine and sends them; sync sends what is waiting and reads the server."
                ),
                tr(
                    "status tells what is waiting or refused; history lists your heights, history weight or history body-fat the others."
                ),
                tr(
                    "trend weight 4w (or height, body-fat, bmi; 3m, 1y, all) says the latest value, the trend, its weekly rate and the goal; add --by week or --by month for the table."
                ),
                tr(
                    "today shows each metric's day: today's value, the 7-day average and the goal."
                ),
                tr(
                    "log water 0.25 l [--date 2026-11-30] [--at 07:30] [--note TEXT] logs any metric: steps, water, sleep, food, mood…"
                ),
                tr(
                    "goal weight 75 [2027-06-01] sets a goal (kept on this machine); goal steps 10000 or goal sleep 8 a daily one; goal weight clear clears it, goal alone says where each stands."
                ),
                tr("import PATH reads an Apple Health export (export.zip or export.xml)."),
                tr("undo takes back the last saved change (again: the one before)."),
                tr(
                    "account EMAIL switches to another account signed in on this machine (Tab completes the email); edits not saved are dropped."
                ),
                tr("quit ends; it asks first when changes are not saved."),
            ]
    }
}

/// What is wrong with a line of plain mode's language; its description says the rule.
public enum PromptProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case notACommand(String)
    case setWhat
    case historyWhich
    case trendGrouping
    /// The words that name neither a series nor a range.
    case trendWhich(String)
    case goalWhich
    case importWhich
    case logWhich
    case logValue(Metric)
    case accountWhich

    public var description: String {
        switch self {
        case .empty: tr("Type a command; help lists them.")
        case .notACommand(let word):
            tr("{command} is not a command. Type help for the commands.", ["command": TextSanitizer.sanitize(word)])
        case .setWhat:
            tr(
                "Say what to set: set {fields} VALUE.",
                ["fields": ProfileField.allCases.filter { $0.form != nil }.map(\.name).joined(separator: "|")])
        case .historyWhich:
            tr("Say which history: history {metrics}.", ["metrics": Metric.all.map(\.id).joined(separator: "|")])
        case .trendGrouping: tr("Say how to group: --by week or --by month.")
        case .trendWhich(let words):
            tr(
                "Say which trend: trend {metrics} {ranges} [--by week|month] ({words} is neither).",
                [
                    "metrics": (Metric.all.map(\.id) + ["bmi"]).joined(separator: "|"),
                    "ranges": ProgressRange.allCases.map(\.word).joined(separator: "|"),
                    "words": TextSanitizer.sanitize(words),
                ])
        case .goalWhich:
            tr("Say which goal: {metrics}.", ["metrics": Goal.metrics.map(\.id).joined(separator: "|")])
        case .logWhich:
            tr(
                "Say what to log: log {metrics} VALUE [--date DAY] [--at HH:MM] [--note TEXT].",
                ["metrics": Metric.all.map(\.id).joined(separator: "|")])
        case .logValue(let metric):
            tr("Give a value, e.g. log {metric} {example}.", ["metric": metric.id, "example": metric.example])
        case .accountWhich:
            tr("Say which account: account EMAIL (Tab completes the emails of the accounts signed in here).")
        case .importWhich:
            tr("Say which file: import PATH (an export file, zip or folder; see fitiq-tui import --help).")
        }
    }
}
