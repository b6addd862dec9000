import Synchronization

/// Decides, request by request, whether to fail it or drop its connection, from a seeded generator.
final class FaultInjector: Sendable {
    /// What to do with one request.
    enum Decision: Sendable, Equatable {
        /// Handle it normally.
        case pass
        /// Answer 503 without doing anything.
        case fail
        /// Do the work, then close the connection without answering.
        case drop
    }

    private let failRate: Double
    private let dropRate: Double
    private let generator: Mutex<SplitMix64>

    init(failRate: Double, dropRate: Double, seed: UInt64) {
        self.failRate = failRate
        self.dropRate = dropRate
        self.generator = Mutex(SplitMix64(seed: seed))
    }

    /// Whether any fault can happen at all.
    var isActive: Bool { failRate > 0 || dropRate > 0 }

    /// Draws the decision for the next request.
    func decide() -> Decision {
        guard isActive else { return .pass }
        let draw = generator.withLock { Double.random(in: 0..<1, using: &$0) }
        if draw < failRate { return .fail }
        if draw < failRate + dropRate { return .drop }
        return .pass
    }
}
