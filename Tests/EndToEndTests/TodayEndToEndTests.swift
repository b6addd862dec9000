import FitIQTestSupport
import Foundation
import Testing

/// The Today screen in a real terminal: steps and water logged from the shell show in tmux at 80×24
/// and, resized, at 40×12; a glass logged from the screen's `l` adds to the day; `h` lists the day's
/// six glasses, one is removed and one corrected, and the server has what the list shows. Every step waits
/// for the whole state it expects.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TodayEndToEndTests {
    /// Registers, runs each of `commands` in the shell, opens the editor at 80×24 and, once the profile
    /// shows, Today (`t`); `body` goes on from there.
    static func withToday(logging commands: [[String]], _ body: (EndToEnd, TmuxSession) async throws -> Void)
        async throws
    {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            for words in commands {
                let run = try await e2e.cli(words)
                #expect(run.status == 0, "\(words): \(run)")
            }
            let tui = try e2e.openTUI(server: server, size: (80, 24))
            defer { tui.kill() }
            try await waitForProfile(tui)
            try await tui.send("t")
            try await body(e2e, tui)
        }
    }

    @Test func todayShowsStepsAndWaterAt80By24And40By12AndLogsAGlass() async throws {
        try await Self.withToday(logging: [
            ["log", "steps", "4000"], ["log", "water", "0.25", "l"], ["goal", "set", "steps", "10000"],
        ]) { _, tui in
            try await tui.waitFor(all: [
                "Today, ", "Steps", "4,000 steps", "Water", "0.25 l", "goal 10,000 steps: 40 %",
            ])

            try await tui.resize(width: 40, height: 12)
            try await tui.waitUntil("Today at 40×12") { rows in
                rows.count == 12 && rows.contains { $0.contains("Steps") && $0.contains("4,000 steps") }
                    && rows.contains { $0.contains("Water") && $0.contains("0.25 l") }
                    && rows.contains { $0.contains("40 % of 10,000 steps") }
            }

            try await tui.send("j")  // steps, then water
            try await tui.waitUntil("water chosen") { $0.contains { $0.contains("›Water") } }
            try await tui.send("l")
            try await tui.waitFor(":log water")
            try await tui.type("0.5 l")
            try await tui.send("Enter")
            try await tui.waitUntil("the glass added to the day") { rows in
                rows.contains { $0.contains("Water") && $0.contains("0.75 l") } && rows.title.contains("● synced")
            }
        }
    }

    /// Six glasses: more than the cache's summary keeps of water, so the list reads them from the history.
    @Test func hListsTheDaysGlassesToRemoveOneAndCorrectAnother() async throws {
        let glasses = (1...4).map { ["log", "water", "0.25", "l", "--note", "glass \($0)"] }
        try await Self.withToday(
            logging: glasses + [
                ["log", "water", "0.25", "l", "--note", "tea"], ["log", "water", "0.5", "l", "--note", "juice"],
            ]
        ) { e2e, tui in
            try await tui.waitUntil("water chosen") { $0.contains { $0.contains("›Water") && $0.contains("1.75 l") } }
            try await tui.send("h")
            // The day's total, then all six glasses, newest first, the newest chosen.
            try await tui.waitUntil("the day's six glasses") { rows in
                rows.contains { $0.contains("Water history") }
                    && rows.contains { $0.contains("  1.75 l") && !$0.contains("manual") }
                    && rows.contains { $0.contains("›") && $0.contains("0.5 l  manual  juice") }
                    && rows.contains { $0.contains("0.25 l  manual  tea") }
                    && (1...4).allSatisfy { glass in rows.contains { $0.contains("0.25 l  manual  glass \(glass)") } }
            }

            try await tui.send("d")
            try await tui.waitFor("Remove this water?")
            try await tui.send("y")
            try await tui.waitUntil("the juice removed, here and on the server") { rows in
                !rows.contains { $0.contains("juice") } && rows.contains { $0.contains("›") && $0.contains("tea") }
                    && rows.contains { $0.contains("glass 1") } && rows.contains { $0.contains("  1.25 l") }
                    && rows.contains { $0.contains("Removed 0.5 l; u undoes it.") } && rows.title.contains("● synced")
            }

            try await tui.send("e")
            try await tui.waitFor("Correct a water entry")
            try await tui.send("C-u")
            try await tui.type("1 l")
            try await tui.send("Enter")
            try await tui.waitUntil("the tea corrected to a litre") { rows in
                rows.contains { $0.contains("›") && $0.contains("  1 l  manual  tea") }
                    && rows.contains { $0.contains("Corrected 0.25 l to 1 l; u undoes it.") }
                    && rows.title.contains("● synced")
            }

            let history = try await e2e.cli(["history", "water"])
            #expect(history.status == 0, "\(history)")
            #expect(history.stdout.contains("  1 l  manual  tea") && !history.stdout.contains("juice"), "\(history)")
        }
    }
}
