import FitIQCore
import FitIQHealth

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The editor for screen readers, dumb terminals, `script` logs and scripted input (`--plain`,
/// `TERM=dumb`, `FITIQ_PLAIN=1`): labelled lines and a `fitiq>` prompt that reads one command per line,
/// from a terminal or a pipe. No full screen, no boxes, no cursor addressing; every answer is one or
/// more complete sentences, with the editor's own validation messages.
struct PlainMode {
    let accounts: Accounts
    var account: Account?
    /// Edits made with `set` and not saved yet, by field, in the order given.
    private var edits: [(field: Field, text: String, value: Value)] = []

    enum Field: String, CaseIterable {
        case name, bio, units, language, height

        var label: String {
            switch self {
            case .name: "Name"
            case .bio: "Bio"
            case .units: "Unit system"
            case .language: "Language"
            case .height: "Height"
            }
        }
    }

    enum Value {
        case text(String)
        case units(UnitSystem)
        case centimetres(Double)
    }

    init(accounts: Accounts, account: Account?) {
        self.accounts = accounts
        self.account = account
    }

    /// Whether plain mode is asked for: `--plain`, `TERM=dumb` or `FITIQ_PLAIN=1`.
    static func isWanted(flag: Bool, environment: [String: String]) -> Bool {
        flag || environment["TERM"] == "dumb" || environment["FITIQ_PLAIN"] == "1"
    }

    /// Runs until `quit` or the end of the input.
    mutating func run() async {
        if account == nil {
            guard await signIn() else { return }
        }
        await show()
        say("Type help for the commands.")
        while true {
            StandardStreams.write("fitiq> ", to: STDOUT_FILENO)
            guard let line = readLine(strippingNewline: true) else {
                endOfInput()
                return
            }
            let words = line.trimmingWhitespace()
            if words.isEmpty { continue }
            if await !handle(words) { return }
        }
    }

    /// Carries out one command; returns `false` when the session ends.
    private mutating func handle(_ line: String) async -> Bool {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let command = parts[0].lowercased()
        let rest = parts.count > 1 ? parts[1] : ""
        switch command {
        case "show": await show()
        case "set": await set(rest)
        case "save": await save()
        case "sync": await sync()
        case "status": await status()
        case "history": await history()
        case "import": await importHealth(rest)
        case "help": help()
        case "quit", "exit": return await quit()
        default: say("\(TextSanitizer.sanitize(command)) is not a command. Type help for the commands.")
        }
        return true
    }

    // MARK: Commands

    private func show() async {
        guard let account, let state = try? await account.cached() else {
            return say("No profile is cached yet; run sync.")
        }
        say("You are signed in as \(TextSanitizer.sanitize(account.email)).")
        say(Output.profileText(state))
        for edit in edits { say("\(edit.field.label) will be \(edit.text) once you save (not saved yet).") }
    }

    private mutating func set(_ arguments: String) async {
        let parts = arguments.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first, let field = Field(rawValue: first.lowercased()) else {
            return say("Say what to set: set name|bio|units|language|height VALUE.")
        }
        let text = parts.count > 1 ? parts[1] : ""
        let units = (try? await account?.cached().profile?.preferredUnitSystem) ?? .metric
        let pendingUnits = edits.last { $0.field == .units }.flatMap { edit -> UnitSystem? in
            if case .units(let units) = edit.value { return units }
            return nil
        }
        do {
            let value: Value
            switch field {
            case .name: value = .text(try ProfileRules.name(text))
            case .bio: value = .text(try ProfileRules.bio(text))
            case .language: value = .text(try ProfileRules.languageCode(text))
            case .units: value = .units(try ProfileRules.unitSystem(text))
            case .height: value = .centimetres(try Height.parse(text, unitSystem: pendingUnits ?? units))
            }
            edits.removeAll { $0.field == field }
            let shown =
                if case .centimetres(let centimetres) = value {
                    Height.format(centimetres, unitSystem: pendingUnits ?? units)
                } else { TextSanitizer.sanitize(text) }
            edits.append((field, shown, value))
            say("\(field.label) will be \(shown) once you save.")
        } catch {
            say("\(error)")
        }
    }

    private mutating func save() async {
        guard let account else { return say("Nothing is signed in.") }
        guard !edits.isEmpty else { return say("There is nothing to save.") }
        var metadata: (name: String?, bio: String?, units: UnitSystem?, language: String?) = (nil, nil, nil, nil)
        var height: Double?
        for edit in edits {
            switch (edit.field, edit.value) {
            case (.name, .text(let text)): metadata.name = text
            case (.bio, .text(let text)): metadata.bio = text
            case (.language, .text(let text)): metadata.language = text
            case (.units, .units(let units)): metadata.units = units
            case (.height, .centimetres(let centimetres)): height = centimetres
            default: break
            }
        }
        // Each form is its own change, saved here first, then sent.
        do {
            if metadata.name != nil || metadata.bio != nil || metadata.units != nil || metadata.language != nil {
                try await account.updateMetadata(
                    name: metadata.name, bio: metadata.bio, unitSystem: metadata.units, languageCode: metadata.language)
            }
            if let height { try await account.updateHeight(centimetres: height) }
        } catch {
            return say("Nothing was saved: \(TextSanitizer.sanitize(String(describing: error)))")
        }
        edits = []
        say("Saved on this machine.")
        await sync()
    }

    private func sync() async {
        guard let account else { return say("Nothing is signed in.") }
        do {
            let report = try await account.syncNow(until: Date().addingTimeInterval(15))
            if report.isSynced {
                say("Synced: the server has every change.")
            } else if report.rejected > 0 {
                say("The server refused \(plural(report.rejected, "change")); type status to see why.")
            } else {
                let reason = report.lastError.map { " (\(TextSanitizer.sanitize($0)))" } ?? ""
                say("\(plural(report.pending, "change")) could not be sent yet\(reason); they are kept here.")
            }
        } catch {
            say("Not synced: \(TextSanitizer.sanitize(String(describing: error))). Your changes are kept here.")
        }
    }

    private func status() async {
        guard let account, let status = try? await account.status() else { return say("Nothing is signed in.") }
        let when = status.lastSyncAt.map { "The last sync was at \(RFC3339.format($0))." } ?? "It has never synced."
        say(
            "You are \(status.signedIn ? "signed in" : "signed out") as \(TextSanitizer.sanitize(status.email)) on \(status.server). \(when)"
        )
        if status.changes.isEmpty { return say("Every change is on the server.") }
        for change in status.changes {
            if let rejection = change.rejection {
                say("The server refused \(change.summary): \(TextSanitizer.sanitize(rejection)).")
            } else {
                say("Waiting to be sent: \(change.summary).")
            }
        }
    }

    private func history() async {
        guard let account, let entries = try? await account.history(of: .height, refresh: false) else {
            return say("Nothing is signed in.")
        }
        guard !entries.isEmpty else { return say("There is no height history yet.") }
        let units = (try? await account.cached().profile?.preferredUnitSystem) ?? .metric
        for entry in entries {
            let day = CalendarDate(containing: entry.loggedAt, in: accounts.environment.timeZone)
            let synced = entry.isSynced ? "on the server" : "not on the server yet"
            say("On \(day): \(Height.format(entry.quantity, unitSystem: units)), \(entry.source.rawValue), \(synced).")
        }
    }

    private func importHealth(_ path: String) async {
        guard let account else { return say("Nothing is signed in.") }
        let typed = path.trimmingWhitespace()
        guard !typed.isEmpty else { return say("Say which file: import PATH (export.zip or export.xml).") }
        let expanded = UserPath.expand(typed, home: ProcessInfo.processInfo.environment["HOME"])
        do {
            let source = try TUILauncher.openHealthExport(expanded)
            say("Reading \(TextSanitizer.sanitize(expanded)); this can take a while.")
            let result = try await account.importHealth(from: source)
            let profile = try? await account.cached().profile
            for line in result.summary(
                unitSystem: profile?.preferredUnitSystem ?? .metric, profileDateOfBirth: profile?.dateOfBirth)
            {
                say(line.hasSuffix(".") ? line : line + ".")
            }
            await sync()
        } catch {
            say("Nothing was imported: \(TextSanitizer.sanitize(String(describing: error)))")
        }
    }

    private func help() {
        say("show writes your profile.")
        say(
            "set name, set bio, set units, set language or set height, followed by the value, changes a field; save saves."
        )
        say("save saves the changes on this machine and sends them; sync sends what is waiting and reads the server.")
        say("status tells what is waiting or refused; history lists your heights.")
        say("import PATH reads an Apple Health export (export.zip or export.xml).")
        say("quit ends; it asks first when changes are not saved.")
    }

    private mutating func quit() async -> Bool {
        guard !edits.isEmpty else { return false }
        StandardStreams.write("Save changes? (y/n) ", to: STDOUT_FILENO)
        guard let answer = readLine(strippingNewline: true) else {
            endOfInput()
            return false
        }
        if answer.trimmingWhitespace().lowercased().hasPrefix("y") {
            await save()
        } else {
            say("\(notSaved(edits.count)).")
        }
        return false
    }

    private func endOfInput() {
        guard !edits.isEmpty else { return say("End of input.") }
        say("End of input: \(notSaved(edits.count)).")
    }

    // MARK: Signing in

    private mutating func signIn() async -> Bool {
        say("Nobody is signed in here. Sign in to \(accounts.server).")
        StandardStreams.write("Email: ", to: STDOUT_FILENO)
        guard let email = readLine(strippingNewline: true)?.trimmingWhitespace(), !email.isEmpty else {
            say("End of input: nobody signed in.")
            return false
        }
        guard let password = PasswordReader.readLine(prompt: "Password: ") else {
            say("End of input: nobody signed in.")
            return false
        }
        do {
            let signedIn = try await accounts.signIn(email: email, password: password)
            account = signedIn.account
            say("Signed in as \(TextSanitizer.sanitize(signedIn.account.email)).")
            return true
        } catch {
            say("Not signed in: \(TextSanitizer.sanitize(String(describing: error)))")
            return false
        }
    }

    private func notSaved(_ count: Int) -> String {
        count == 1 ? "1 change was not saved" : "\(count) changes were not saved"
    }

    /// Writes a line (unbuffered, like the prompts, so they never come out of order).
    private func say(_ sentence: String) {
        StandardStreams.write(sentence + "\n", to: STDOUT_FILENO)
    }
}
