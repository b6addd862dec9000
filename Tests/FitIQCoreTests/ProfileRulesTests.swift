import FitIQCore
import Testing

struct ProfileRulesTests {
    @Test func textThatWasNotUTF8IsRefusedNamingTheRule() {
        // What Swift makes of the bytes "Ana \xff\xfe" given as an argument.
        let decoded = String(decoding: [0x41, 0x6E, 0x61, 0x20, 0xFF, 0xFE], as: UTF8.self)
        #expect(throws: ValidationError.invalidFormat(.name, rule: .validUTF8)) {
            try ProfileRules.name(decoded)
        }
        #expect(throws: ValidationError.self) { try ProfileRules.bio(decoded) }
    }

    @Test func namesAreTrimmedAndRequired() throws {
        #expect(try ProfileRules.name("  Jane  ") == "Jane")
        #expect(throws: ValidationError.required(.name)) { try ProfileRules.name("   ") }
        #expect(throws: ValidationError.required(.name)) { try ProfileRules.name("") }
    }

    @Test func limitsCountWhatTheUserSees() throws {
        let hundredEmoji = String(repeating: "🏃‍♀️", count: 100)
        #expect(try ProfileRules.name(hundredEmoji) == hundredEmoji)
        #expect(throws: ValidationError.tooLong(.name, limit: 100, count: 101)) {
            try ProfileRules.name(String(repeating: "a", count: 101))
        }
        #expect(throws: ValidationError.tooLong(.bio, limit: 500, count: 501)) {
            try ProfileRules.bio(String(repeating: "é", count: 501))
        }
        #expect(try ProfileRules.bio("") == "")
    }

    @Test(arguments: ["\u{1B}[2J", "\u{1B}]0;pwned\u{07}", "line\nbreak", "nul\u{0}", "bell\u{07}", "c1\u{9B}31m"])
    func refusesControlCharacters(text: String) {
        #expect(throws: ValidationError.controlCharacters(.bio)) { try ProfileRules.bio("bio " + text) }
        #expect(throws: ValidationError.controlCharacters(.name)) { try ProfileRules.name("Jane " + text) }
    }

    @Test(arguments: [
        ("en", "en"), ("PT-br", "pt-BR"), ("es-419", "es-419"), ("pt_BR", "pt-BR"), ("fil", "fil"), (" ", ""),
    ])
    func canonicalisesLanguageCodes(text: String, expected: String) throws {
        #expect(try ProfileRules.languageCode(text) == expected)
    }

    @Test(arguments: ["xx-invalid-!!", "e", "engl", "en-B", "en-1234", "12"])
    func rejectsBadLanguageCodes(text: String) {
        #expect {
            try ProfileRules.languageCode(text)
        } throws: { error in
            (error as? ValidationError)?.field == .languageCode
                && String(describing: error).contains("2–3 letters")
        }
    }

    @Test func registrationNeedsAnAgeFrom13To120() throws {
        let today = try #require(CalendarDate(parsing: "2026-11-22"))
        #expect(try ProfileRules.dateOfBirth("2013-11-22", today: today).description == "2013-11-22")
        #expect {
            try ProfileRules.dateOfBirth("2013-11-23", today: today)
        } throws: { String(describing: $0) == "Date of birth must make you at least 13 years old (you would be 12)." }
        #expect {
            try ProfileRules.dateOfBirth("2027-01-01", today: today)
        } throws: { String(describing: $0) == "Date of birth cannot be in the future." }
        #expect(throws: ValidationError.self) { try ProfileRules.dateOfBirth("1900-01-01", today: today) }
        #expect(throws: ValidationError.self) { try ProfileRules.dateOfBirth("1990-02-30", today: today) }
        #expect(throws: ValidationError.required(.dateOfBirth)) { try ProfileRules.dateOfBirth(" ", today: today) }
    }

    @Test func emailsAndPasswords() throws {
        #expect(try ProfileRules.email(" jane@example.com ") == "jane@example.com")
        #expect(throws: ValidationError.self) { try ProfileRules.email("jane") }
        #expect(throws: ValidationError.required(.email)) { try ProfileRules.email("") }
        #expect(try ProfileRules.password(" spaced ") == " spaced ")
        #expect(throws: ValidationError.required(.password)) { try ProfileRules.password("") }
    }

    @Test func messagesNameTheFieldAndTheRule() {
        #expect(
            ValidationError.tooLong(.name, limit: 100, count: 101).description
                == "Name must be at most 100 characters (it has 101).")
        #expect(ValidationError.required(.name).description == "Name is required: it must not be empty or only spaces.")
        #expect(
            ValidationError.controlCharacters(.bio).description
                == "Bio must not contain control characters or escape sequences.")
    }
}

struct UserPathTests {
    @Test(arguments: [
        ("~/export.zip", "/home/ana", "/home/ana/export.zip"),
        ("~", "/home/ana", "/home/ana"),
        ("/tmp/export.zip", "/home/ana", "/tmp/export.zip"),
        ("export.zip", "/home/ana", "export.zip"),
        ("a/~/b", "/home/ana", "a/~/b"),
    ])
    func expandsALeadingTildeToHome(path: String, home: String, expanded: String) {
        #expect(UserPath.expand(path, home: home) == expanded)
    }
}
