import FitIQCore

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

extension LocalZone {
    /// This machine's local time: `TZ`, else `/etc/localtime`, as the C library reads them
    /// (`localtime_r`'s `tm_gmtoff` at each instant, daylight saving time included). Foundation without
    /// ICU cannot tell: its `TimeZone.current` is always GMT.
    static let system: LocalZone = {
        tzset()
        return LocalZone { instant in
            var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
    }()
}

/// The zone `--zone` names: UTC, a fixed offset, or a zone of the machine's database.
struct ImportZone {
    let name: String
    /// A fixed offset, or `nil` for a named zone (entered as the process's `TZ`).
    private let offset: Int?

    init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        name = trimmed
        if ["utc", "z", "gmt"].contains(trimmed.lowercased()) {
            offset = 0
        } else if let match = trimmed.wholeMatch(of: /(?<sign>[+-])(?<h>\d{2}):?(?<m>\d{2})?/),
            let hours = Int(match.h),
            hours <= 14
        {
            let minutes = match.m.flatMap { Int($0) } ?? 0
            guard minutes < 60 else { return nil }
            offset = (match.sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
        } else if trimmed.wholeMatch(of: /[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*/) != nil,
            FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + trimmed)
        {
            offset = nil
        } else {
            return nil
        }
    }

    /// The zone, for the readers.
    var local: LocalZone { offset.map { LocalZone.fixed(secondsEastOfUTC: $0) } ?? .system }

    /// Makes a named zone the process's local time, before anything reads it.
    func enterIfNamed() {
        guard offset == nil else { return }
        setenv("TZ", name, 1)
        tzset()
    }

}
