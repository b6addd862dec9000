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
    /// A SplitMix64 state moved by one atomic add per request: concurrent requests each take their own
    /// draw without a lock.
    private let state: Atomic<UInt64>

    init(failRate: Double, dropRate: Double, seed: UInt64) {
        self.failRate = failRate
        self.dropRate = dropRate
        self.state = Atomic(seed)
    }

    /// Whether any fault can happen at all.
    var isActive: Bool { failRate > 0 || dropRate > 0 }

    /// Draws the decision for the next request.
    func decide() -> Decision {
        guard isActive else { return .pass }
        let drawn = SplitMix64.mix(state.wrappingAdd(SplitMix64.increment, ordering: .relaxed).newValue)
        let draw = Double(drawn >> 11) * 0x1p-53  // the top 53 bits: uniform in 0..<1
        if draw < failRate { return .fail }
        if draw < failRate + dropRate { return .drop }
        return .pass
    }
}
