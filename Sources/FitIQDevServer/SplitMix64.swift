/// A small seedable random generator, so a `--fault-seed` replays the same fault decisions.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// What the state moves by at each draw.
    static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// The output for a state: a generator is its state moved by ``increment`` per draw, then mixed.
    static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
