import FitIQCore
import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

/// Bad values typed into the editor (in tmux), each on a fresh account: a value that breaks a rule shows
/// a message under the field naming the field and the rule, and queues nothing; an escape sequence or
/// bytes that are not UTF-8 typed into a field never reach the terminal (its title and screen stay) nor
/// the saved value.
@Suite(.timeLimit(.minutes(5)))
struct BadInputEndToEndTests {
    /// The profile's fields, in Tab order, and every label a message could run into.
    static let fields = ["Name", "Bio", "Unit system", "Language", "Height", "Weight", "Body fat"]
    static let labels = fields + ["BMI", "Date of birth", "Biological sex", "Email", "Password"]

    /// What is typed: text, or bytes sent as they are (`send-keys -H`).
    enum Typed: Sendable {
        case text(String)
        case bytes([String])
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let label: String
        let typed: [Typed]
        /// Whether the value breaks a rule (else it is saved, cleaned).
        var breaksARule = true
        /// Whether Enter confirms the value (a field at its limit says so as the extra character comes).
        var confirms = true
        var testDescription: String { name }
    }

    static let rows: [Row] =
        [
            Row(name: "name empty", label: "Name", typed: []),
            Row(name: "name whitespace", label: "Name", typed: [.text("   ")]),
            Row(
                name: "name 101 characters", label: "Name", typed: [.text(String(repeating: "n", count: 101))],
                confirms: false),
            Row(
                name: "bio 501 characters", label: "Bio", typed: [.text(String(repeating: "b", count: 501))],
                confirms: false),
            Row(name: "language xx-invalid-!!", label: "Language", typed: [.text("xx-invalid-!!")]),
        ] + ["abc", "-5", "0", "1e9", "5'13\""].map { Row(name: "height \($0)", label: "Height", typed: [.text($0)]) }
        + ["abc", "700", "1 kg", "72 stone", "11 st 15 lb"].map {
            Row(name: "weight \($0)", label: "Weight", typed: [.text($0)])
        }
        + ["abc", "80", "0.5 %", "18 kg"].map { Row(name: "body fat \($0)", label: "Body fat", typed: [.text($0)]) }
        + [
            Row(name: "name with escape sequence", label: "Name", typed: [.text("Eve\u{1B}[2J")], breaksARule: false),
            Row(
                name: "bio with OSC title", label: "Bio", typed: [.text("\u{1B}]0;pwned\u{07} ok")], breaksARule: false),
            Row(
                name: "name invalid UTF-8", label: "Name", typed: [.text("Ana "), .bytes(["ff", "fe"]), .text("B")],
                breaksARule: false),
        ]

    @Test(arguments: rows)
    func aBadValueTypedIntoAFieldIsRefusedOrCleaned(row: Row) async throws {
        try await withEndToEnd { e2e, server in
            try await withEditor(server, in: e2e) { tui in
                let title = try await tui.title()
                let before = try await Self.pending(e2e)
                for _ in 0..<(Self.fields.firstIndex(of: row.label) ?? 0) { try await tui.send("Tab") }
                try await tui.send("Enter")
                if row.label == "Language" {
                    // The list of languages, filtered by what is typed.
                    try await tui.waitFor("English")
                } else {
                    try await tui.waitFor("Enter confirm")
                    try await tui.send("C-u")
                }
                for typed in row.typed {
                    switch typed {
                    case .text(let text): try await tui.type(text)
                    case .bytes(let bytes): try await tui.sendBytes(bytes)
                    }
                }
                if row.confirms { try await tui.send("Enter") }
                if row.label == "Language" || !row.breaksARule {
                    try await tui.waitUntil("the draft") { rows in
                        rows.contains { $0.contains("›\(row.label)") && $0.contains(" *") }
                    }
                    try await tui.send("C-s")
                }
                if row.breaksARule {
                    let screen = try await tui.waitUntil("a whole message under \(row.label)") {
                        Self.message(in: $0, under: row.label).hasSuffix(".")
                    }
                    let said = Self.message(in: TmuxSession.rows(of: screen), under: row.label)
                    #expect(said.contains(row.label), "\(row.name): \(said)")
                    #expect(try await Self.pending(e2e) == before, "\(row.name)")
                } else {
                    let screen = try await tui.waitUntil("the value saved") { rows in
                        rows.prefix(3).contains { $0.contains("Profile") }
                            && rows.contains { $0.contains("›\(row.label)") && !$0.contains(" *") }
                    }
                    let shown = try await e2e.cli(["profile", "show", "--json"])
                    let profile = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
                    let value = profile?[row.label.lowercased()] as? String ?? ""
                    #expect(value.hasNoControlCharacters, "\(row.name): saved as \(value.debugDescription)")
                    #expect(
                        Self.value(in: TmuxSession.rows(of: screen), of: row.label).hasNoControlCharacters,
                        "\(row.name)")
                    #expect(TmuxSession.rows(of: screen).prefix(3).contains { $0.contains("Profile") })
                }
                // An escape sequence that got through would have changed the terminal's title.
                #expect(try await tui.title() == title, "\(row.name)")
            }
        }
    }

    @Test(arguments: [
        ("future date of birth", "x@example.com", "2999-01-01", "Date of birth"),
        ("age 12", "y@example.com", "", "Date of birth"),
        ("bad email", "not-an-email", "1990-01-01", "Email"),
    ])
    func theRegistrationFormRefusesABadValueAndKeepsNothing(
        name: String, email: String, birth: String, label: String
    ) async throws {
        // Twelve and a half years ago: too young to register.
        let birth =
            birth.isEmpty
            ? CalendarDate(containing: Date().addingTimeInterval(-12.5 * 365.25 * 86_400), in: .utc).description : birth
        try await withEndToEnd { e2e, server in
            let tui = try e2e.openTUI(server: server)
            defer { tui.kill() }
            try await tui.waitFor("Email")
            try await tui.send("C-r")
            try await tui.waitFor("Date of birth")
            for (index, text) in [email, "a-good-password", "X", birth].enumerated() {
                if index > 0 { try await tui.send("Tab") }
                try await tui.type(text)
            }
            try await tui.send("Enter")
            let screen = try await tui.waitUntil("a whole message under \(label)") {
                Self.message(in: $0, under: label).hasSuffix(".")
            }
            let said = Self.message(in: TmuxSession.rows(of: screen), under: label)
            #expect(said.contains(label), "\(name): \(said)")
            let state = URL(fileURLWithPath: e2e.environment["XDG_STATE_HOME"] ?? "").appendingPathComponent(
                "fitiq")
            #expect(!FileManager.default.fileExists(atPath: state.path), "\(name): something was kept")
        }
    }

    /// How many changes wait to be sent.
    static func pending(_ e2e: EndToEnd) async throws -> Int? {
        let status = try await e2e.cli(["status", "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["pendingChanges"]
            as? Int
    }

    /// The message under a field (`! <label> …`), its wrapped lines joined; "" when there is none.
    static func message(in rows: [String], under label: String) -> String {
        let lines = rows.map(Array.init)
        for (index, line) in lines.enumerated() {
            guard let start = line.index(of: Array("! \(label)")) else { continue }
            let end = line.index(of: ["│"], from: start)
            func part(_ row: [Character]) -> String {
                guard start < row.count else { return "" }
                return String(row[start..<min(end ?? row.count, row.count)]).trimmingCharacters(in: .whitespaces)
            }
            var parts = [part(line)]
            for following in lines[(index + 1)...] {
                let next = part(following)
                if next.isEmpty || next.contains("─")
                    || labels.contains(where: { next.hasPrefix($0 + "  ") || next == $0 })
                {
                    break
                }
                parts.append(next)
            }
            return parts.joined(separator: " ")
        }
        return ""
    }

    /// The value a profile row shows beside its label.
    static func value(in rows: [String], of label: String) -> String {
        for row in rows {
            guard let at = row.range(of: "›\(label) ") else { continue }
            return String(row[at.upperBound...].split(separator: "│", omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: .whitespaces)
        }
        return ""
    }
}

extension Array where Element == Character {
    /// Where `needle` starts at or after `from`.
    func index(of needle: [Character], from: Int = 0) -> Int? {
        guard needle.count <= count, from <= count - needle.count else { return nil }
        return (from...(count - needle.count)).first { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
