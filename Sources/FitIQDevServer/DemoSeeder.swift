import Foundation

/// Creates the demo account, its profile and a year of measurements (weekly heights, weights on most
/// mornings, monthly body fat), straight into storage.
struct DemoSeeder: Sendable {
    static let name = "Alex Demo"
    static let bio = "Demo account of the FitIQ development server."
    static let dateOfBirth = CalendarDate(year: 1990, month: 4, day: 12)
    static let currentHeight = 178.0
    static let weeks = 52
    /// The weight a year ago and today (kg): a slow loss, as a person tracking it would have.
    static let weightAYearAgo = 84.0
    static let currentWeight = 78.5
    /// Body fat a year ago and today (%).
    static let bodyFatAYearAgo = 24.0
    static let currentBodyFat = 21.0

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
        let today = services.today
        try await store.insertEntries(
            Self.heightHistory(userID: user.id, today: today) + Self.weightHistory(userID: user.id, today: today)
                + Self.bodyFatHistory(userID: user.id, today: today), createdAt: now)
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

    /// Weights on about five mornings in seven over the past year (07:00–07:29 UTC), falling evenly from
    /// 84.0 to 78.5 kg with up to 0.6 kg of day-to-day noise; today's is 78.5 kg.
    static func weightHistory(userID: String, today: CalendarDate) -> [ProgressRecord] {
        var generator = SplitMix64(seed: 20_250_310)
        return (0...365).reversed().compactMap { daysAgo -> ProgressRecord? in
            let skipped = Int.random(in: 0..<7, using: &generator) < 2
            let minute = Int64.random(in: 0..<30, using: &generator)
            let noise = Double(Int.random(in: -6...6, using: &generator)) / 10
            guard daysAgo == 0 || !skipped else { return nil }
            let trend = currentWeight + (weightAYearAgo - currentWeight) * Double(daysAgo) / 365
            let kilograms = ((trend + (daysAgo == 0 ? 0 : noise)) * 10).rounded() / 10
            return record(
                userID: userID, type: "weight", quantity: kilograms, day: today.adding(days: -daysAgo),
                minutes: 7 * 60 + minute)
        }
    }

    /// Body fat once a month (every 30 days, 07:40 UTC) over the past year, from 24.0 to 21.0 % with up to
    /// 0.3 % of noise; today's is 21.0 %.
    static func bodyFatHistory(userID: String, today: CalendarDate) -> [ProgressRecord] {
        var generator = SplitMix64(seed: 20_250_311)
        return (0...12).reversed().map { monthsAgo in
            let noise = monthsAgo == 0 ? 0 : Double(Int.random(in: -3...3, using: &generator)) / 10
            let trend = currentBodyFat + (bodyFatAYearAgo - currentBodyFat) * Double(monthsAgo) / 12
            return record(
                userID: userID, type: "body_fat_percentage", quantity: ((trend + noise) * 10).rounded() / 10,
                day: today.adding(days: -30 * monthsAgo), minutes: 7 * 60 + 40)
        }
    }

    private static func record(userID: String, type: String, quantity: Double, day: CalendarDate, minutes: Int64)
        -> ProgressRecord
    {
        ProgressRecord(
            id: DevServerServices.makeID(), userID: userID, type: type, quantity: quantity,
            loggedAt: Timestamp(milliseconds: Int64(day.daysSinceEpoch) * 86_400_000 + minutes * 60_000), notes: nil)
    }
}
