import FitIQCore
import FitIQHealth
import FitIQTUI
import Foundation
import NcursesTerminal

/// Opens the terminal UI for `accounts` (the current account's profile, or the sign-in screen).
public enum TUILauncher {
    /// Runs the editor until the user quits; `network` signs in and syncs.
    public static func run(
        accounts: Accounts, account: Account?, network: any EditorNetwork, environment: [String: String]
    ) async throws {
        let runner = TUIRunner(
            accounts: accounts, account: account, network: network, healthSource: { AppleHealthExport(url: $0) })
        let initial = await runner.initialState(size: (0, 0))
        // ncurses belongs to one thread for its whole life (NCURSES.md P10); the tasks that do the
        // work run on the cooperative pool and report back through the runner's event queue.
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            let thread = Thread {
                let outcome: (any Error)?
                do {
                    let screen = try NcursesScreen(environment: environment)
                    var state = initial
                    state.size = screen.size
                    runner.run(on: screen, state: state)
                    // The terminal is restored before the process may end, not after.
                    screen.restore()
                    outcome = nil
                } catch {
                    outcome = error
                }
                continuation.resume(returning: outcome)
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        await runner.finish()
        if let failure { throw failure }
    }
}
