#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Use cases on the profile: load (cache first), update metadata, update physical data.
extension Account {
    /// The cached state read whole, for tests (screens and commands read ``view()``).
    public func cached() async throws -> AccountState {
        try await store.load()
    }

    /// The cached profile, outbox and summaries without the history's bulk (``ProfileStore/overview()``).
    func overview() async throws -> RecentAccountState {
        try await store.overview().state
    }

    /// Pushes local edits, then reads the server's profile and histories into the cache; returns the
    /// account as it then stands.
    @discardableResult
    public func refresh() async throws -> AccountView {
        try await engine.drain()
        try await engine.pullAll(full: false)
        return try await view()
    }

    /// Which of the entries `ids` the server holds now (an import reports what it delivered).
    public func delivered(_ ids: Set<UUID>) async throws -> Set<UUID> {
        var delivered = Set<UUID>()
        for metric in Metric.all {
            try await store.forEachEntry(of: metric) { entry in
                if entry.isSynced, ids.contains(entry.id) { delivered.insert(entry.id) }
            }
        }
        return delivered
    }

    /// Changes the given metadata fields (others keep their values); saved locally and queued as one `PUT`
    /// (``apply(_:sending:)`` with ``ChangeRequest/metadata(name:bio:unitSystem:languageCode:)``).
    ///
    /// - Returns: whether anything changed.
    @discardableResult
    func updateMetadata(
        name: String? = nil, bio: String? = nil, unitSystem: UnitSystem? = nil, languageCode: String? = nil,
        sending: Bool = false
    ) async throws -> Bool {
        guard let current = try await store.overview().state.profile?.metadata else {
            throw AccountError.profileNotLoaded
        }
        // Only what changes is checked: a value the server holds that this client's rules refuse (another
        // app wrote it) never blocks an edit of another field.
        var edited = current
        if let name, name != current.name { edited.name = try ProfileRules.name(name) }
        if let bio, bio != current.bio { edited.bio = try ProfileRules.bio(bio) }
        if let unitSystem { edited.preferredUnitSystem = unitSystem }
        if let languageCode, languageCode != current.languageCode {
            edited.languageCode = try ProfileRules.languageCode(languageCode)
        }
        let metadata = edited
        let now = environment.now()
        // The history plays no part: a command started cold reads and writes account.json alone.
        let changed = try await save(sending: sending) { state in
            guard let previous = state.profile?.metadata else { return false }
            let changed = metadata.changedKeys(from: previous).sorted()
            guard state.editMetadata(metadata, now: now) else { return false }
            state.undoLog.remember(.metadata(previous: previous, wording: .fields(changed)))
            return true
        }
        return changed
    }

    /// Changes the height to `centimetres` (parsed once, from what the user typed in their units); a
    /// value that shows as the current height does changes nothing. Never touches date of birth or
    /// biological sex.
    ///
    /// - Returns: whether the height changed.
    @discardableResult
    func updateHeight(centimetres proposed: Double, sending: Bool = false) async throws -> Bool {
        guard let profile = try await store.overview().state.profile else { throw AccountError.profileNotLoaded }
        guard
            let centimetres = Height.change(
                from: profile.heightCm, to: proposed, unitSystem: profile.preferredUnitSystem)
        else { return false }
        try await logHeight(centimetres, sending: sending)
        return true
    }
}
