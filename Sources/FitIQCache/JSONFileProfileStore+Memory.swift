import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the store keeps in memory between calls, so an unchanged `account.json` is decoded once.
extension JSONFileProfileStore {
    /// What was last read or written: `account.json`'s bytes, what they decode to, and the history.
    struct Snapshot: Sendable {
        var bytes: Data
        var stored: StoredAccount
        var state: AccountState
        /// The segments must be written anew by the next save (a version 1 file, a segment lost).
        var needsRewrite: Bool

        /// Whether `newer` is this snapshot with more changes journaled on the same segments.
        func extends(to newer: StoredAccount) -> Bool {
            !needsRewrite && stored.inlineHistory == nil && newer.inlineHistory == nil
                && stored.index.segments == newer.index.segments
                && newer.index.journal.starts(with: stored.index.journal)
        }
    }

    /// A lock-free read met something only a read under the lock may settle.
    struct Unsettled: Error {}

    /// A part of the account read from its file (``PartFiles``).
    enum Part: Sendable {
        case index([HistoryIndex.Segment])
        case summary(HistorySummary)
    }

    final class Memory: Sendable {
        private let last = Mutex<Snapshot?>(nil)
        /// `account.json` as last decoded without its segments, with its bytes.
        private let lastDecoded = Mutex<(bytes: Data, stored: StoredAccount)?>(nil)
        /// `account.json` as last decoded alone (without its parts), with its bytes.
        private let lastContents = Mutex<(bytes: Data, contents: AccountFileContents)?>(nil)
        /// `account.json` as last read for an overview, without the history's index, with its bytes.
        private let lastHead = Mutex<(bytes: Data, head: AccountHead)?>(nil)
        /// What the last write of `account.json` encoded of its queued posts.
        private let encodedPosts = Mutex<AccountFileV3.EncodedPosts?>(nil)
        /// The parts read or written lately, by file name (a part's file never changes).
        private let parts = Mutex<[String: Part]>([:])

        func withEncodedPosts<T>(_ body: (inout AccountFileV3.EncodedPosts?) throws -> T) throws -> T {
            try encodedPosts.withLock { try body(&$0) }
        }

        func part(named name: String) -> Part? { parts.withLock { $0[name] } }

        func remember(part: Part, named name: String) {
            parts.withLock { parts in
                // Each save of a metric names a new file: the oldest are of no more use.
                if parts.count >= Self.partsKept { parts.removeAll() }
                parts[name] = part
            }
        }

        /// How many parts are remembered: the fifteen metrics' summaries and the index, twice over.
        static let partsKept = 40
        let counters = Mutex(Counters())

        func decoded(for bytes: Data) -> StoredAccount? {
            lastDecoded.withLock { known in known.flatMap { $0.bytes == bytes ? $0.stored : nil } }
        }

        func remember(decoded stored: StoredAccount, bytes: Data) { lastDecoded.withLock { $0 = (bytes, stored) } }

        func contents(for bytes: Data) -> AccountFileContents? {
            lastContents.withLock { known in known.flatMap { $0.bytes == bytes ? $0.contents : nil } }
        }

        func remember(contents: AccountFileContents, bytes: Data) { lastContents.withLock { $0 = (bytes, contents) } }

        func head(for bytes: Data) -> AccountHead? {
            lastHead.withLock { known in known.flatMap { $0.bytes == bytes ? $0.head : nil } }
        }

        func remember(head: AccountHead, bytes: Data) { lastHead.withLock { $0 = (bytes, head) } }

        func snapshot(for bytes: Data) -> Snapshot? {
            last.withLock { known in known.flatMap { $0.bytes == bytes ? $0 : nil } }
        }

        func snapshot() -> Snapshot? { last.withLock { $0 } }

        func remember(_ snapshot: Snapshot) { last.withLock { $0 = snapshot } }

        func forget() {
            last.withLock { $0 = nil }
            lastDecoded.withLock { $0 = nil }
            lastHead.withLock { $0 = nil }
            lastContents.withLock { $0 = nil }
            encodedPosts.withLock { $0 = nil }
            parts.withLock { $0 = [:] }
        }

        func count(_ change: (inout Counters) -> Void) { counters.withLock { change(&$0) } }
    }
}
