/// A small seeded random generator (SplitMix64) for tests that draw random input: the same seed draws
/// the same values on every machine and every run, so a failure is reproduced from its seed.
///
/// Its draws are its own (``below(_:)``, ``unit()``), not the standard library's `random(in:using:)`,
/// whose algorithm may change between Swift versions.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator seeded by `text` (its FNV-1a hash): one per named run, `"20260101:real:7"`.
    public init(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count` (`count` > 0).
    public mutating func below(_ count: Int) -> Int {
        Int(UInt64(count).multipliedFullWidth(by: next()).high)
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// A number in `0..<1`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// One of `elements` (not empty).
    public mutating func pick<C: Collection>(_ elements: C) -> C.Element where C.Index == Int {
        elements[elements.startIndex + below(elements.count)]
    }

    /// `count` different elements of `elements`, in the order drawn.
    public mutating func sample<T>(_ elements: [T], count: Int) -> [T] {
        var pool = elements
        var drawn: [T] = []
        for _ in 0..<min(count, pool.count) {
            drawn.append(pool.remove(at: below(pool.count)))
        }
        return drawn
    }
}
