/// How many progress posts go out at once: up to a limit, halved when the server says it is
/// overwhelmed (429 Too Many Requests), widened again by one after each batch it takes whole.
public struct ProgressWindow: Sendable, Equatable {
    /// The limit unless the user sets another: about as many as a distant server needs to meet
    /// `make bench-sync`'s target (docs/benchmarks.md), few enough to stay polite.
    public static let defaultLimit = 8
    /// The most allowed, whatever the user sets.
    public static let maximumLimit = 32

    /// The widest the window gets.
    public let limit: Int
    /// The width now.
    public private(set) var size: Int

    public init(limit: Int) {
        self.limit = min(max(limit, 1), Self.maximumLimit)
        size = self.limit
    }

    /// Narrows the window when the server answered 429 to a post of the batch just sent; widens it
    /// when the server took the whole batch.
    public mutating func record(overloaded: Bool, acknowledged: Bool) {
        if overloaded {
            size = max(1, size / 2)
        } else if acknowledged {
            size = min(limit, size + 1)
        }
    }
}

extension RemoteError {
    /// 429 Too Many Requests: the server asks for fewer requests at once.
    var isTooManyRequests: Bool {
        if case .unavailable(status: 429, _) = self { true } else { false }
    }
}

extension SyncOutcome {
    /// Whether the server took the change.
    var isAcknowledged: Bool {
        switch self {
        case .delivered, .saved, .logged: true
        case .retry, .rejected, .abandoned: false
        }
    }
}
