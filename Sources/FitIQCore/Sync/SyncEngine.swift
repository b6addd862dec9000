#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Drains one account's outbox to the backend and pulls the server's copy (docs/architecture.md "Local-first sync").
///
/// Every step re-reads the cache under the account lock, so several processes may run engines for
/// the same account: claims keep them from sending the same entry twice.
public actor SyncEngine {
    let store: any ProfileStore
    let session: SessionManager
    let profiles: any ProfileRemote
    let progress: any ProgressRemote
    let environment: SyncEnvironment
    let identity: AccountIdentity
    /// This engine's name in outbox claims.
    let owner = UUID()
    /// How many progress posts are sent at once; narrowed by the server's 429s.
    private(set) var window: ProgressWindow

    public init(
        store: any ProfileStore, session: SessionManager, profiles: any ProfileRemote, progress: any ProgressRemote,
        identity: AccountIdentity, environment: SyncEnvironment
    ) {
        self.store = store
        self.session = session
        self.profiles = profiles
        self.progress = progress
        self.identity = identity
        self.environment = environment
        self.window = ProgressWindow(limit: environment.progressPostsInFlight)
    }

    /// How many windows of progress posts one batch holds: a batch is claimed (written ahead) and
    /// acknowledged in one cache write each, so wider batches cost fewer writes per post; narrower ones
    /// lose less acknowledgement to a crash (an entry sent but not acknowledged is looked up on the
    /// server before it is sent again).
    static let windowsPerBatch = 4

    /// How many progress posts are in flight now (at most the environment's limit).
    public var progressPostsInFlight: Int { window.size }

    /// What a save claimed for this engine in its own write (``AccountState/claimNext``) and this
    /// engine has not sent yet: the next drain sends it without a claim write of its own.
    var reserved: [SyncOperation] = []

    /// Whether a claim no longer holds before its time: its holder has ended.
    nonisolated var isVoid: @Sendable (Claim) -> Bool {
        let isRunning = environment.isRunning
        return { claim in claim.holder.map { !isRunning($0) } ?? false }
    }

    /// How many progress posts one claim takes at most.
    nonisolated var batchLimit: Int { environment.progressPostsInFlight * Self.windowsPerBatch }

    /// Called after each write that records answers (``onSettled(_:)``).
    private var settledObserver: (@Sendable () async -> Void)?

    /// Calls `observer` after each write that records requests' answers: an open editor shows each
    /// acknowledgement at once, without waiting for its cache watch (which is for other processes).
    public func onSettled(_ observer: @escaping @Sendable () async -> Void) {
        settledObserver = observer
    }

    /// Applies `change` to the latest entries and, in the same write, claims for this engine what goes
    /// out next (``AccountState/claimNext``): the next drain sends it without a claim write of its own.
    func save<T: Sendable>(claiming change: @escaping @Sendable (inout RecentAccountState) throws -> T)
        async throws -> T
    {
        let (owner, now, holder) = (self.owner, environment.now(), environment.process)
        let (isVoid, limit, held) = (self.isVoid, batchLimit, reservedItems)
        let (result, batch) = try await store.updateRecent { state in
            let result = try change(&state)
            let claimed = state.claimNext(
                for: owner, now: now, holder: holder, isVoid: isVoid, limit: limit, reserved: held)
            return (result, claimed.batch)
        }
        reserve(batch)
        return result
    }

    /// Remembers what a save claimed for this engine (``AccountState/claimNext``), for the next drain.
    func reserve(_ batch: [SyncOperation]) {
        let items = Set(batch.map(\.item))
        reserved = reserved.filter { !items.contains($0.item) } + batch
    }

    /// The entries reserved for this engine by saves and not sent yet.
    var reservedItems: Set<OutboxItemID> { Set(reserved.map(\.item)) }

    /// Performs `batch`, then records every outcome in one cache write. Progress posts go through a
    /// sliding window (a new one starts as each answer arrives, at most ``window`` in flight), a height's
    /// `PATCH` among them; anything else goes alone. After a 429 the window is halved and no further post of the batch starts (they
    /// wait behind the one answered 429). An operation that fails outside the contract (signed out,
    /// cancelled) stops further starts; it and whatever did not finish are released for later, and its
    /// error is thrown.
    ///
    /// - Parameters:
    ///   - unchecked: why the conflict check before this send did not reach the server; a profile or
    ///     height change is then tried again later instead of being sent unchecked.
    ///   - offline: why an attempt just found no way to the server: nothing of the batch is sent, each
    ///     is tried again later, for that reason.
    /// - Returns: whether a profile or height change is to be tried again, and why an attempt of this
    ///   batch found no way to the server, when one did.
    func send(_ batch: [SyncOperation], unchecked: SyncProblem?, offline: SyncProblem? = nil) async throws
        -> SendOutcome
    {
        var outcomes = [SyncOutcome](repeating: .abandoned, count: batch.count)
        var toStart: [(index: Int, operation: SyncOperation)] = []
        for (index, operation) in batch.enumerated() {
            if let offline {
                outcomes[index] = .retry(offline)
            } else if let unchecked, operation.isProfileChange {
                outcomes[index] = .retry(unchecked)
            } else {
                toStart.append((index, operation))
            }
        }
        let answers = await sendThroughWindow(toStart, width: window.size)
        var failure: (any Error)?
        for answer in answers {
            switch answer.result {
            case .success(let outcome): outcomes[answer.index] = outcome
            case .failure(let error): failure = failure ?? error
            }
        }
        // A 429 to any request narrows the window; a batch of posts taken whole widens it.
        let overloaded = answers.contains(where: \.overloaded)
        if overloaded || batch.count > 1 {
            window.record(
                overloaded: overloaded, acknowledged: outcomes.allSatisfy(\.isAcknowledged))
        }
        let now = environment.now()
        let randoms = batch.map { _ in environment.random() }
        let settled = outcomes
        // A post's answer gives its entry, possibly an older one, the server's id: its month is read.
        let posted = batch.compactMap { operation -> EntryLocation? in
            guard case .logProgress(let id, let entry, _) = operation else { return nil }
            return EntryLocation(id: id, posting: entry)
        }
        try await store.updateRecent(including: posted) {
            Self.settle(&$0, batch, settled, now: now, randoms: randoms)
        }
        await settledObserver?()
        if let failure { throw failure }
        let recheck = zip(batch, settled).contains { operation, outcome in
            guard case .retry = outcome else { return false }
            return operation.isProfileChange
        }
        let offline = settled.lazy.compactMap { outcome -> SyncProblem? in
            guard case .retry(let problem) = outcome, problem.isOffline else { return nil }
            return problem
        }.first
        return SendOutcome(recheck: recheck, offline: offline)
    }

    /// Records the outcome of each operation of `batch`.
    private static func settle(
        _ state: inout AccountRecord<some EntryList>, _ batch: [SyncOperation], _ outcomes: [SyncOutcome], now: Date,
        randoms: [Double]
    ) {
        for (index, operation) in batch.enumerated() {
            state.finish(operation, outcome: outcomes[index], now: now, random: randoms[index])
        }
    }

    /// One request's answer: its outcome (or an error outside the contract), and whether it was a 429.
    private struct Answer: Sendable {
        var index: Int
        var result: Result<SyncOutcome, any Error>
        var overloaded: Bool
    }

    /// Performs `operations` at most `width` at once, starting the next as each answer arrives; stops
    /// starting after a 429 or an error outside the contract. Returns the answers of those started.
    private func sendThroughWindow(_ operations: [(index: Int, operation: SyncOperation)], width: Int) async
        -> [Answer]
    {
        await withTaskGroup(of: Answer.self, returning: [Answer].self) { group in
            var answers: [Answer] = []
            var next = 0
            var running = 0
            var stopped = false
            while true {
                while !stopped, running < width, next < operations.count {
                    let (index, operation) = operations[next]
                    next += 1
                    running += 1
                    group.addTask {
                        do {
                            return Answer(
                                index: index, result: .success(try await self.perform(operation)), overloaded: false)
                        } catch let error as RemoteError {
                            return Answer(
                                index: index, result: .success(Self.outcome(of: error)),
                                overloaded: error.isTooManyRequests)
                        } catch {
                            return Answer(index: index, result: .failure(error), overloaded: false)
                        }
                    }
                }
                guard let answer = await group.next() else { return answers }
                running -= 1
                if answer.overloaded { stopped = true }
                if case .failure = answer.result { stopped = true }
                answers.append(answer)
            }
        }
    }

    /// A pending profile or height change is checked against the server's value now before it is sent
    /// (three-way: a field the server changed since the edit, to something else, is held as a conflict).
    /// An unreachable server is left to the sends to report. `sync`, the editor's sync and the writes
    /// of the command line call it before draining (not every drain: it costs a request).
    ///
    /// - Returns: whether the check was made (or nothing needed one); `false` when the server was not reached.
    @discardableResult
    public func checkForConflicts() async throws -> Bool {
        try await conflictCheck() == nil
    }

    /// ``checkForConflicts()``, saying why the server was not reached (`nil` when it was, or when
    /// nothing needed a check); `state` is the cache as the caller last read it (by default, read now).
    func conflictCheck(in state: RecentAccountState? = nil) async throws -> SyncProblem? {
        let state = if let state { state } else { try await store.overview().state }
        let metadataBased = !(state.outbox.metadata?.bases.isEmpty ?? true)
        let heightBased = state.outbox.physical.map { $0.includesHeight && $0.hasHeightBase } ?? false
        guard metadataBased || heightBased else { return nil }
        do {
            // A server unchanged since it was last read leaves the cache unwritten.
            try await pull(savingUnchanged: false)
            return nil
        } catch let error as SessionError {
            throw error
        } catch let error as RemoteError {
            return .remote(error)
        } catch {
            return .said(String(describing: error))
        }
    }
}
