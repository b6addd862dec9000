import FitIQCore
import Foundation
import Testing

@testable import FitIQTUI

struct SignInScreenTests {
    func signInState(width: Int = 80, height: Int = 24) -> AppState {
        AppState(
            screen: .signIn, size: (width, height), now: fixedNow, timeZone: .utc, server: "https://api.fitiq.test")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func showsTheServerAndMasksThePassword(width: Int, height: Int) {
        var state = signInState(width: width, height: height)
        press(type("jane@example.com") + [.tab] + type("secret"), &state)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Sign in to FitIQ") })
        #expect(lines.contains { $0.contains("Server  https://api.fitiq.test") })
        #expect(lines.contains { $0.contains("jane@example.com") })
        #expect(lines.contains { $0.contains("••••••") })
        #expect(!lines.contains { $0.contains("secret") })
    }

    @Test func lettersTypeAndEnterSignsIn() {
        var state = signInState()
        // `q`, `h`, `s` are letters here, not commands.
        let effects = press(type("qhs@example.com") + [.tab] + type("pw") + [.enter], &state)
        #expect(effects == [.signIn(email: "qhs@example.com", password: "pw")])
        #expect(state.signIn.busy)
        _ = update(&state, .signInFailed("Invalid email or password"))
        #expect(screen(state).lines.contains { $0.contains("Invalid email or password") })
    }

    @Test func registrationChecksAgeAndShowsErrorsInline() {
        var state = signInState()
        press([.control("r")] + type("kid@example.com") + [.tab] + type("pw") + [.tab] + type("Kid") + [.tab], &state)
        press(type("2015-01-01") + [.enter], &state)
        #expect(!state.signIn.busy)
        // The whole rule is shown, wrapped inside the box at 80 columns.
        let lines = screen(state).lines
        let text = lines.map { $0.replacingOccurrences(of: "│", with: "").trimmingCharacters(in: .whitespaces) }
        #expect(
            text.joined(separator: " ").contains("! Date of birth must make you at least 13 years old (you would be"),
            "\(lines.joined(separator: "\n"))")
        press([.control("u")] + type("1990-01-01") + [.enter], &state)
        #expect(state.signIn.busy)
    }

    @Test func aBadEmailIsCaughtBeforeSending() {
        var state = signInState()
        let effects = press(type("jane") + [.tab] + type("pw") + [.enter], &state)
        #expect(effects.isEmpty)
        #expect(screen(state).lines.contains { $0.contains("Email must look like") })
    }
}
