// libFuzzer target `text`: every parser of what a person types or a file names, in FitIQCore.
//
// The first byte of an input picks the parser (its value modulo 8: `0` measurements (height, weight,
// body fat), `1` dates, `2` language codes and unit systems, `3` emails and passwords, `4` names, bios
// and notes, `5` the terminal sanitizer and paths, `6` server addresses, `7` access tokens); the rest
// is read as UTF-8 text (invalid bytes become U+FFFD, as they do from a terminal). A parser may refuse
// any text with an error; what it accepts must obey its rule (a measurement in range whose display
// parses back to itself, a date that exists, a language code in canonical case), and nothing may
// trap, hang or blow up memory.
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The day dates of birth are judged against.
private let today = CalendarDate(year: 2025, month: 6, day: 15)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let selector = bytes.first else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch selector % 8 {
    case 0: measurements(text)
    case 1: dates(text)
    case 2: languages(text)
    case 3: credentials(text)
    case 4: texts(text)
    case 5: sanitizer(text)
    case 6: servers(text)
    default: tokens(text)
    }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

private func measurements(_ text: String) {
    for metric in Metric.all {
        for units in [UnitSystem.metric, .imperial] {
            guard let value = try? metric.parse(text, unitSystem: units) else { continue }
            check(metric.allowedRange.contains(value), "\(metric) \(value) out of range from \(text.debugDescription)")
            // What is shown can be typed back: the displayed value parses to the same display.
            let shown = metric.format(value, unitSystem: units)
            guard let again = try? metric.parse(shown, unitSystem: units) else {
                fatalError("the display \(shown.debugDescription) of \(text.debugDescription) does not parse")
            }
            check(
                metric.format(again, unitSystem: units) == shown,
                "\(metric) display \(shown.debugDescription) does not round-trip")
            check(metric.change(from: value, to: again, unitSystem: units) == nil, "\(metric) \(shown) drifts")
        }
    }
}

private func dates(_ text: String) {
    if let date = CalendarDate(parsing: text) {
        check(CalendarDate(parsing: date.description) == date, "date \(date) does not round-trip")
        check(CalendarDate(daysSince1970: date.daysSince1970) == date, "date \(date) day count does not round-trip")
        _ = date.adding(days: 1).years(until: date)
    }
    if let today, let birth = try? ProfileRules.dateOfBirth(text, today: today) {
        let age = birth.years(until: today)
        check(
            (ProfileRules.minimumAge...ProfileRules.maximumAge).contains(age),
            "date of birth \(birth) accepted at age \(age)")
    }
    if let instant = RFC3339.parse(text) {
        _ = RFC3339.format(instant)
    }
}

private func languages(_ text: String) {
    if let code = try? ProfileRules.languageCode(text) {
        check((try? ProfileRules.languageCode(code)) == code, "language code \(code.debugDescription) is not canonical")
    }
    _ = try? ProfileRules.unitSystem(text)
}

private func credentials(_ text: String) {
    if let email = try? ProfileRules.email(text) {
        check(!email.isEmpty && email.contains("@"), "email \(email.debugDescription) accepted")
        check(!TextSanitizer.containsControls(email), "email \(email.debugDescription) holds controls")
    }
    _ = try? ProfileRules.password(text)
}

private func texts(_ text: String) {
    for accepted in [try? ProfileRules.name(text), try? ProfileRules.bio(text), try? ProfileRules.notes(text)] {
        guard let accepted else { continue }
        check(!TextSanitizer.containsControls(accepted), "text \(accepted.debugDescription) holds controls")
    }
    _ = try? ProfileRules.metadata(name: text, bio: text, unitSystem: .metric, languageCode: text)
}

private func sanitizer(_ text: String) {
    let clean = TextSanitizer.sanitize(text)
    check(!TextSanitizer.containsControls(clean), "sanitized text \(clean.debugDescription) holds controls")
    check(TextSanitizer.sanitize(clean) == clean, "sanitizing \(clean.debugDescription) again changes it")
    _ = UserPath.expand(text, home: "/home/user")
    _ = text.trimmingSpaces()
    _ = text.trimmingWhitespace()
}

private func servers(_ text: String) {
    if let address = try? ServerAddress(text) {
        check(!address.description.hasSuffix("/"), "server address \(address) ends with a slash")
    }
    _ = try? ServerAddress(text, allowInsecureHTTP: true)
}

private func tokens(_ text: String) {
    if let claims = AccessTokenClaims(token: text) {
        _ = claims.refreshDue(receivedAt: Date(timeIntervalSince1970: 0))
    }
}
