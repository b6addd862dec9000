import FitIQCore
import Testing

struct TextSanitizerTests {
    @Test(arguments: [
        ("Bio \u{1B}]0;pwned\u{07} end", "Bio  end"),
        ("\u{1B}[2Jclear", "clear"),
        ("\u{1B}[38;5;196mred\u{1B}[0m", "red"),
        ("title \u{1B}]2;x\u{1B}\\ after", "title  after"),
        ("c1 \u{9B}31mcsi", "c1 csi"),
        ("tab\there\nline", "tab here line"),
        ("bidi \u{202E}evil", "bidi evil"),
        ("bell\u{07}nul\u{0}del\u{7F}", "bellnuldel"),
        ("José 李 🏃‍♀️ é", "José 李 🏃‍♀️ é"),
        ("dangling \u{1B}", "dangling "),
        ("esc-c \u{1B}cok", "esc-c ok"),
    ])
    func removesEscapeSequencesWhole(input: String, expected: String) {
        #expect(TextSanitizer.sanitize(input) == expected)
        #expect(!TextSanitizer.containsControls(TextSanitizer.sanitize(input)))
    }
}
