#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns `errno` values into the text shown in cache errors.
enum ErrnoText {
    /// `No space left on device (errno 28)`.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }

    /// The text of the current `errno`.
    static var current: String { describe(errno) }
}
