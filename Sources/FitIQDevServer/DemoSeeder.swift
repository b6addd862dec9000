import Foundation

/// Creates the demo account, its profile and a year of weekly height entries, straight into storage.
struct DemoSeeder: Sendable {
    static let name = "Alex Demo"
    static let bio = "Demo account of the FitIQ development server."
    static let dateOfBirth = CalendarDate(year: 1990, month: 4, day: 12)
    static let currentHeight = 178.0
    static let weeks = 52

    let services: DevServerServices

    /// Seeds the account once; on a kept database it only refreshes the password.
    func seed(_ account: DevServerConfiguration.DemoAccount) async throws {
        let store = services.store
        let hash = services.hashPassword(account.password)
        if let existing = try await store.user(email: account.email) {
            try await store.updatePasswordHash(userID: existing.id, hash: hash)
            return
        }
        guard let dateOfBirth = Self.dateOfBirth else { return }
        let now = services.timestamp
        let user = UserRecord(
            id: DevServerServices.makeID(), email: account.email, passwordHash: hash, name: Self.name,
            dateOfBirth: dateOfBirth, createdAt: now
        )
        let profile = ProfileRecord(
            id: DevServerServices.makeID(), userID: user.id, name: Self.name, bio: Self.bio,
            preferredUnitSystem: "metric", languageCode: "en", biologicalSex: nil, heightCm: Self.currentHeight,
            createdAt: now, updatedAt: now
        )
        guard try await store.createUser(user, profile: profile) else { return }
        try await store.insertEntries(Self.heightHistory(userID: user.id, today: services.today), createdAt: now)
    }

    /// Weekly entries at 08:00 UTC from a year ago to today, wobbling a few millimetres and ending at 178.0 cm.
    static func heightHistory(userID: String, today: CalendarDate) -> [ProgressRecord] {
        var generator = SplitMix64(seed: 20_240_412)
        return (0...weeks).map { weeksAgo in
            let day = today.adding(days: -7 * weeksAgo)
            let loggedAt = Timestamp(milliseconds: Int64(day.daysSinceEpoch) * 86_400_000 + 8 * 3_600_000)
            // Morning measurements vary by a few millimetres; the newest one is the profile's height.
            let wobble = weeksAgo == 0 ? 0 : Double(Int.random(in: -4...4, using: &generator)) / 10
            return ProgressRecord(
                id: DevServerServices.makeID(), userID: userID, type: "height", quantity: currentHeight + wobble,
                loggedAt: loggedAt, notes: nil
            )
        }
    }
}
