#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UUID {
    /// A random (version 4) UUID from the system's generator (`getrandom`). Foundation's `UUID()` opens
    /// and reads `/dev/urandom` for each one on Linux: a first sync of 10,000 entries, each given a local
    /// id, opened it 10,000 times.
    public static func generated() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return UUID.random(using: &generator)
    }
}
