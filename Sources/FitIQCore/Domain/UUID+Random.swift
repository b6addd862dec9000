import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

extension UUID {
    /// A random (version 4) UUID from the kernel's generator, read 4 KB at a time. Foundation's `UUID()`
    /// opens and reads `/dev/urandom` for each one on Linux, and `SystemRandomNumberGenerator` makes a
    /// system call per 8 bytes: a first sync gives every entry a local id (docs/benchmarks.md
    /// "bench-scale").
    public static func generated() -> UUID {
        var bytes = RandomBytes.shared.sixteen()
        bytes.6 = bytes.6 & 0x0F | 0x40  // version 4
        bytes.8 = bytes.8 & 0x3F | 0x80  // the RFC 4122 variant
        return UUID(uuid: bytes)
    }
}

/// Random bytes from the kernel, fetched a block at a time and handed out in order (the process never
/// forks without exec, so no two processes hand out the same block).
final class RandomBytes: Sendable {
    static let shared = RandomBytes()
    private static let block = 4096
    private let pool = Mutex<(bytes: [UInt8], used: Int)>(([], 0))

    func sixteen() -> uuid_t {
        pool.withLock { pool in
            if pool.used + 16 > pool.bytes.count {
                pool = (Self.fetch(Self.block), 0)
            }
            defer { pool.used += 16 }
            let b = pool.bytes
            let at = pool.used
            return (
                b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7], b[at + 8],
                b[at + 9], b[at + 10], b[at + 11], b[at + 12], b[at + 13], b[at + 14], b[at + 15]
            )
        }
    }

    /// `count` random bytes: from the kernel in one call where the C library offers it, else from the
    /// system generator eight at a time.
    private static func fetch(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        #if canImport(Glibc)
            // One `getrandom` for the whole block (glibc 2.36's arc4random_buf).
            bytes.withUnsafeMutableBytes { buffer in
                if let base = buffer.baseAddress { arc4random_buf(base, count) }
            }
        #else
            var generator = SystemRandomNumberGenerator()
            for index in 0..<count { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
        #endif
        return bytes
    }
}
