import FitIQTestSupport
import Foundation
import Testing

/// The Today screen in a real terminal: steps and water logged from the shell show in tmux at 80×24
/// and, resized, at 40×12; a glass logged from the screen's `l` adds to the day. Every step waits for
/// the whole state it expects.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TodayEndToEndTests {
    @Test func todayShowsStepsAndWaterAt80By24And40By12AndLogsAGlass() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            for words in [
                ["log", "steps", "4000"], ["log", "water", "0.25", "l"], ["goal", "set", "steps", "10000"],
            ] {
                let run = try await e2e.cli(words)
                #expect(run.status == 0, "\(words): \(run)")
            }
            let tui = try e2e.openTUI(server: server, size: (80, 24))
            defer { tui.kill() }
            try await waitForProfile(tui)
            try await tui.send("t")
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
}
