#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one rule for "the same reading": the same metric, the same minute, and the same value at the
/// precision the metric is shown in (0.1 kg, 0.1 %, 0.1 cm), whichever app, file or machine each came
/// from. Imports (Apple Health's and other apps'), the merge of the server's history and the search for
/// a post whose answer was lost all use it.
struct ReadingKey: Hashable {
    var type: String
    var minute: Int64
    var tenths: Int64

    init(_ entry: ProgressEntry) {
        self.init(type: entry.type, loggedAt: entry.loggedAt, quantity: entry.quantity)
    }

    /// Without an entry made for it (an entry's id is a fresh UUID: random bytes from the system).
    init(type: String, loggedAt: Date, quantity: Double) {
        self.type = type
        let seconds = loggedAt.timeIntervalSince1970
        let value = quantity * 10
        minute = seconds.isFinite ? Int64((seconds / 60).rounded(.down).clamped(to: -1e15...1e15)) : 0
        tenths = value.isFinite ? Int64(value.rounded().clamped(to: -1e15...1e15)) : Int64.min
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

extension ProgressEntry {
    /// Whether `other` is the same reading (``ReadingKey``): same metric, minute and shown value.
    func isSameReading(as other: ProgressEntry) -> Bool {
        ReadingKey(self) == ReadingKey(other)
    }
}
