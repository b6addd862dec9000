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
