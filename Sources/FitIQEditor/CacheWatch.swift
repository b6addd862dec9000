import FitIQCore

/// Tells the editor when an account's cache may have been written, by this process or another (the
/// editor then compares the store's revision, so a change reported twice or in vain costs one look).
public protocol CacheWatch: Sendable {
    /// One element after each batch of changes to `account`'s cache, until the reading task is
    /// cancelled; `nil` when this account's cache cannot be watched here.
    func changes(of account: Account) -> AsyncStream<Void>?
}
