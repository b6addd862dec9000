import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `:` opens a line at the bottom that takes plain mode's commands (``PromptCommand``).
func openCommandLine(_ state: inout AppState) -> [Effect] {
    state.commandLine = TextField("", limit: 200)
    state.commandRecall = nil
    state.message = nil
    return []
}

/// `a` opens the `:` line with `account ` typed, and the accounts there are in the message line.
func openAccountLine(_ state: inout AppState) -> [Effect] {
    state.commandLine = TextField("account ", limit: 200)
    state.commandRecall = nil
    let others = state.knownAccounts.filter { $0.lowercased() != state.account?.email.lowercased() }
    state.message =
        others.isEmpty
        ? (tr("No other account is signed in on this machine; sign one in with fitiq-tui login --email EMAIL."), false)
        : (others.map(TextSanitizer.sanitize).joined(separator: "  "), false)
    return []
}

/// The keys of the `:` line (``KeyTable/commandLine``).
func performOnCommandLine(_ action: KeyAction, _ state: inout AppState) -> [Effect] {
    guard let line = state.commandLine else { return [] }
    switch action {
    case .closeCommandLine:
        state.commandLine = nil
        state.message = nil
    case .completeCommand:
        complete(line, &state)
    case .recallEarlier, .recallLater:
        let history = state.commandHistory
        guard !history.isEmpty else { return [] }
        let recall: Int? =
            action == .recallEarlier
            ? max(0, (state.commandRecall ?? history.count) - 1)
            : state.commandRecall.flatMap { $0 + 1 < history.count ? $0 + 1 : nil }
        state.commandRecall = recall
        state.commandLine = TextField(recall.map { history[$0] } ?? "", limit: line.limit)
    case .runCommand:
        return run(line.text, &state)
    default:
        break
    }
    return []
}

/// Tab: the word being typed completed when one candidate fits, else taken as far as they agree, with
/// the candidates in the message line.
private func complete(_ line: TextField, _ state: inout AppState) {
    let text = line.text
    let candidates = PromptCommand.completions(of: text, accounts: state.knownAccounts)
    guard let first = candidates.first else { return }
    let start = text.lastIndex(of: " ").map { text.index(after: $0) } ?? text.startIndex
    var common = first
    for candidate in candidates.dropFirst() {
        while !candidate.hasPrefix(common) { common.removeLast() }
    }
    let completed = String(text[..<start]) + (candidates.count == 1 ? first + " " : common)
    state.commandLine = TextField(completed, limit: line.limit)
    state.message = candidates.count > 1 ? (candidates.joined(separator: "  "), false) : nil
}

/// Enter: the line parsed and carried out; a mistake is said with its rule and the line stays.
private func run(_ text: String, _ state: inout AppState) -> [Effect] {
    let command: PromptCommand
    switch PromptCommand.parse(text) {
    case .success(let parsed): command = parsed
    case .failure(let problem):
        state.message = (problem.description, true)
        return []
    }
    let typed = text.trimmingSpaces()
    if state.commandHistory.last != typed { state.commandHistory.append(typed) }
    state.commandRecall = nil
    state.commandLine = nil
    state.message = nil
    switch command {
    case .show:
        state.screen = .profile
    case .set(let field, let value):
        return set(field, value, typed, &state)
    case .save:
        state.screen = .profile
        return saveAll(&state)
    case .sync:
        state.message = (tr("Syncing…"), false)
        return [.syncNow]
    case .status:
        state.screen = .profile
        state.lower = .syncDetails
        state.detailsScroll = 0
    case .undo:
        return [.undo]
    case .help:
        state.overlay = .help
    case .quit:
        state.screen = .profile
        return performOnProfile(.quit, key: .character("q"), &state)
    case .history(let metric) where !Metric.body.contains(metric):
        // The body's measurements have their list on the profile; every other metric's is on Today.
        return openToday(&state) + openEntries(metric, &state)
    case .history(let metric):
        state.screen = .profile
        state.lower = .history
        state.historyMetric = metric
        if let field = ProfileField.allCases.first(where: { $0.metric == metric }) { state.profile.focus = field }
        let count = state.account?.history(of: metric).entries.count ?? 0
        state.historySelection = count > 0 ? 0 : nil
    case .trend(let series, let range, let period):
        return showProgress(series, range: range, table: period, &state)
    case .goals:
        return showProgress(state.progress.series, range: state.progress.range, table: nil, &state)
    case .goal(let metric):
        return showProgress(.metric(metric), range: state.progress.range, table: nil, &state)
    case .setGoal(let name, let target, let by):
        do {
            let goal = try Goal.parse(
                metric: name, target: target, by: by, unitSystem: ProfileValues(state).unitSystem,
                today: CalendarDate(containing: state.now, in: state.timeZone))
            return [.setGoal(goal.metric, target: goal.target, by: goal.by)]
        } catch {
            return mistake(error.description, typed, &state)
        }
    case .clearGoal(let metric):
        return [.clearGoal(metric)]
    case .today:
        return openToday(&state)
    case .log(let metric, let value, let when):
        do {
            let parsed = try metric.parse(value, unitSystem: ProfileValues(state).unitSystem)
            let (day, time) = try when.resolved()
            if let note = when.note { _ = try ProfileRules.notes(note) }
            return [.save(.measurement(metric, parsed, day: day, time: time, notes: when.note))]
        } catch {
            return mistake(error.description, typed, &state)
        }
    case .account(let email):
        if let account = state.account, account.email.lowercased() == email.lowercased() {
            state.message = (
                tr("You are on {email}'s profile already.", ["email": TextSanitizer.sanitize(email)]), false
            )
            return []
        }
        state.message = (tr("Opening {email}'s profile…", ["email": TextSanitizer.sanitize(email)]), false)
        return [.switchAccount(email: email)]
    case .importFile(let path):
        state.screen = .profile
        state.overlay = .importing(path: TextField(path), fraction: 0)
        return [.importHealth(path: path)]
    }
    return []
}

/// `set FIELD VALUE`: the value as a draft of the form, as typing it into the field and pressing Enter
/// would leave it (saved by `save` or Ctrl-S).
private func set(_ field: ProfileField, _ value: String, _ typed: String, _ state: inout AppState) -> [Effect] {
    let answer = state.profile.edits.draft(field, value, over: state.account, canImport: state.canImportHealth)
    if answer.isMistake { return mistake(answer.sentence, typed, &state) }
    state.screen = .profile
    state.profile.errors[field] = nil
    state.message = (answer.sentence, false)
    return []
}

/// A command that is well formed but cannot be carried out as typed: said with its rule, the line open
/// again with the text to correct.
private func mistake(_ sentence: String, _ typed: String, _ state: inout AppState) -> [Effect] {
    state.commandLine = TextField(typed, limit: 200)
    state.message = (sentence, true)
    return []
}

/// The progress screen on `series` over `range`, with the table by `table` or the chart.
func showProgress(
    _ series: MeasurementSeries, range: ProgressRange, table: SummaryPeriod?, _ state: inout AppState
) -> [Effect] {
    var screen = state.progress
    screen.series = series
    screen.range = range
    screen.table = table
    screen.tableScroll = 0
    screen.histories = [:]
    screen.report = nil
    state.progress = screen
    state.screen = .progress
    return [.loadProgress(series)]
}
