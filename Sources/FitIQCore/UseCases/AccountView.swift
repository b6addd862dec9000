#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What screens and commands show of an account: a projection the core publishes, so that nothing
/// outside the core and the cache reads the account's raw state. Built from an overview, it costs the
/// same at any history size: each metric's latest entries and thinned series, never the whole history.
public struct AccountView: Sendable, Equatable {
    /// One metric's history as a screen draws it.
    public struct History: Sendable, Equatable {
        /// Entries, newest first: the latest ones (``HistorySummary/latest``), or the whole history of a
        /// view made from a state read whole.
        public var entries: [ProgressEntry]
        /// The history thinned for a chart, oldest first.
        public var chart: [ProgressEntry]
        /// How many entries the history holds.
        public var count: Int

        public static let empty = History(entries: [], chart: [], count: 0)
    }

    public var email: String
    public var server: String
    /// The profile as cached here, with local edits.
    public var profile: UserProfile?
    /// By metric id; a metric without entries has none.
    public var histories: [String: History]
    /// The BMI of the latest weight, with the height at its date.
    public var bodyMassIndex: BodyMassIndex?
    /// The changes not yet acknowledged, in queue order, with what holds them back: the first
    /// ``listedChanges`` of them.
    public var pendingChanges: [PendingChange]
    /// How many changes there are beyond ``pendingChanges``.
    public var unlistedChanges = 0
    /// User-visible changes waiting, and those the server refused.
    public var pendingCount: Int
    public var rejectedCount: Int
    /// Fields edited here that the server changed since, with both values.
    public var conflicts: [FieldConflict]
    /// Where each form's changes stand, as shown under the form.
    public var metadataStatus: FormChangeStatus
    public var physicalStatus: FormChangeStatus
    /// When the server last acknowledged or answered a pull.
    public var lastSyncAt: Date?
    /// The store's revision read before the view (``ProfileStore/revision()``): a write that lands
    /// meanwhile has another one, so a watcher of the cache shows it again, never misses it.
    public var revision: StoreRevision?

    /// The most pending changes a view lists: an import queues thousands, and a view is made after
    /// each sync round.
    public static let listedChanges = 200

    /// The history of `metric`.
    public func history(of metric: Metric) -> History {
        histories[metric.id] ?? .empty
    }

    /// The newest entry of `metric`, if any.
    public func latestEntry(of metric: Metric) -> ProgressEntry? {
        history(of: metric).entries.first
    }

    /// The view of an overview: the lists hold the summaries' latest entries (more than a screen
    /// lists) and the charts their series, whether or not the whole history is in memory.
    ///
    /// - Parameters:
    ///   - now: with it, each pending change says what holds it back then.
    ///   - isRunning: whether a claim's holder still runs.
    public init(
        email: String, server: String, overview: AccountOverview, timeZone: LocalZone, now: Date? = nil,
        isRunning: (ProcessIdentity) -> Bool = { _ in true }
    ) {
        var histories: [String: History] = [:]
        for metric in Metric.all {
            guard let summary = overview.summaries[metric.type] else { continue }
            let entries = summary.latest.filter(\.quantity.isFinite)
            histories[metric.id] = History(
                entries: entries, chart: Self.chart(summary, metric), count: max(summary.count, entries.count))
        }
        self.init(
            email: email, server: server, state: overview.state, histories: histories, timeZone: timeZone, now: now,
            isRunning: isRunning)
    }

    /// The view of a state read whole (tests, and a command that read it all anyway).
    public init(email: String, server: String, state: AccountState, timeZone: LocalZone = .utc, now: Date? = nil) {
        var histories: [String: History] = [:]
        for metric in Metric.all {
            let entries = state.history.enumerated()
                .filter { $0.element.type == metric.type && $0.element.quantity.isFinite }
                // Of entries logged at the same instant, the one stored first (the newest) wins.
                .sorted { ($0.element.loggedAt, $1.offset) > ($1.element.loggedAt, $0.offset) }
                .map(\.element)
            guard !entries.isEmpty else { continue }
            histories[metric.id] = History(
                entries: entries, chart: Self.chart(HistorySummary(of: entries), metric), count: entries.count)
        }
        self.init(
            email: email, server: server, state: state, histories: histories, timeZone: timeZone, now: now,
            isRunning: { _ in true })
    }

    private init(
        email: String, server: String, state: AccountRecord<some EntryList>, histories: [String: History],
        timeZone: LocalZone,
        now: Date?, isRunning: (ProcessIdentity) -> Bool
    ) {
        self.email = email
        self.server = server
        profile = state.profile
        self.histories = histories
        bodyMassIndex = BodyMassIndex.latest(in: state, timeZone: timeZone)
        pendingChanges = state.pending.changes(
            timeZone: timeZone, now: now, isRunning: isRunning, limit: Self.listedChanges)
        unlistedChanges = state.pending.listLength - pendingChanges.count
        pendingCount = state.pending.count
        rejectedCount = state.pending.rejectedCount
        conflicts = state.pending.conflicts
        metadataStatus = state.pending.metadataStatus
        physicalStatus = state.pending.physicalStatus
        lastSyncAt = state.server.lastSyncAt
    }

    /// The summary's series as a chart draws it.
    private static func chart(_ summary: HistorySummary, _ metric: Metric) -> [ProgressEntry] {
        summary.series.map { point in
            ProgressEntry(id: chartId, type: metric.type, quantity: point.value, loggedAt: point.at, source: .server)
        }
    }

    /// The id of every chart point (they are never listed or chosen).
    private static let chartId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension Account {
    /// The account as screens and commands show it, from the cache (no history read).
    public func view() async throws -> AccountView {
        let revision = await store.revision()
        var view = AccountView(
            email: email, server: key.server, overview: try await store.overview(), timeZone: environment.timeZone,
            now: environment.now(), isRunning: environment.isRunning)
        view.revision = revision
        return view
    }
}
