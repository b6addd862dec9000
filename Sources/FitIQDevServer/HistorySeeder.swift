import Foundation

/// Adds a long history to an account at start-up (`--seed-email`, `--seed-heights`, `--seed-weights`):
/// what the benchmarks measure sync, export and the editor against, put in through the server rather than
/// into its tables from outside.
///
/// Evenly (`--seed-shape even`), heights and weights are spread over the past ten years (at most a day
/// apart), the newest weight an hour ago and the newest height two hours ago; shaped as a production
/// account (`production`), heights are 12 hours apart (closer where they would begin before 1990) ending
/// three years ago and weights a day apart; heights cycle through 170.0–173.9 cm and the
/// profile's height becomes the newest; weights ease from 84 to 78 kg with a tenth-of-a-kilogram noise.
struct HistorySeeder: Sendable {
    let services: DevServerServices

    func seed(_ history: DevServerConfiguration.SeedHistory) async throws {
        let store = services.store
        guard let user = try await store.user(email: history.email) else {
            throw DevServerSetupError.seedAccountMissing(history.email)
        }
        let now = services.timestamp
        let hour: Int64 = 3_600_000
        let (heightsEnd, heightsStep, weightsStep): (Int64, Int64?, Int64?) =
            switch history.shape {
            case .even: (2 * hour, nil, nil)
            case .production:
                (
                    3 * 365 * 24 * hour,
                    Self.productionStep(history.heights, endingMsAgo: 3 * 365 * 24 * hour, now: now), 24 * hour
                )
            }
        let entries =
            Self.spread(history.heights, newestMsAgo: heightsEnd, step: heightsStep, now: now) { index in
                ((170 + Double(index % 40) / 10) * 10).rounded() / 10
            }.map { record(user.id, "height", $0) }
            + Self.spread(history.weights, newestMsAgo: hour, step: weightsStep, now: now) { index in
                let count = Double(history.weights)
                return ((84 - 6 * Double(index) / count + Double(index * 7919 % 13 - 6) / 10) * 10).rounded() / 10
            }.map { record(user.id, "weight", $0) }
        try await store.insertEntries(entries + Self.everyMetric(history.everyMetricDays, user.id, now), createdAt: now)
        if history.heights > 0, var profile = try await store.profile(userID: user.id) {
            profile.heightCm = entries.filter { $0.type == "height" }.max { $0.loggedAt < $1.loggedAt }?.quantity
            profile.updatedAt = now
            try await store.updateProfile(profile)
        }
    }

    /// The other types the server records, with a day's value each cycles through.
    static let dailyValues: [(type: String, values: [Double])] = [
        ("body_fat_percentage", [21.5, 21.2, 21.8]), ("steps", [8_412, 11_250, 4_020, 9_877]),
        ("distance_km", [6.2, 8.4, 3.1]), ("active_minutes", [42, 65, 18]), ("calories_out", [2_310, 2_655, 2_080]),
        ("water_liters", [1.8, 2.25, 1.5]), ("calories_in", [2_150, 2_400, 1_980]), ("protein_g", [95, 120, 80]),
        ("carbs_g", [240, 280, 210]), ("fat_g", [70, 85, 62]), ("sleep_hours", [7.5, 6.75, 8.1]),
        ("resting_heart_rate", [58, 61, 57]), ("mood_score", [7, 8, 6]),
    ]

    /// `days` days of one entry a day of each of ``dailyValues``' types, the newest today at 07:00 UTC.
    static func everyMetric(_ days: Int, _ userID: String, _ now: Timestamp) -> [ProgressRecord] {
        guard days > 0 else { return [] }
        let day: Int64 = 86_400_000
        let today = now.milliseconds / day * day + 7 * 3_600_000
        let newest = today <= now.milliseconds ? today : today - day
        return dailyValues.flatMap { type, values in
            (0..<days).map { index in
                ProgressRecord(
                    id: DevServerServices.makeID(), userID: userID, type: type, quantity: values[index % values.count],
                    loggedAt: Timestamp(milliseconds: newest - Int64(index) * day), notes: nil)
            }
        }
    }

    private func record(_ userID: String, _ type: String, _ reading: (Timestamp, Double)) -> ProgressRecord {
        ProgressRecord(
            id: DevServerServices.makeID(), userID: userID, type: type, quantity: reading.1, loggedAt: reading.0,
            notes: nil)
    }

    /// Production heights are 12 hours apart, or closer where that would begin before 1990 (100,000 of
    /// them 12 hours apart span 137 years).
    static func productionStep(_ count: Int, endingMsAgo: Int64, now: Timestamp) -> Int64 {
        let since1990 = now.milliseconds - endingMsAgo - 631_152_000_000  // 1990-01-01T00:00:00Z
        return min(12 * 3_600_000, since1990 / Int64(max(1, count)))
    }

    /// `count` instants, oldest first, `step` ms apart (by default at most a day apart over ten years), the
    /// newest `newestMsAgo` before `now`, each with `value(index)`.
    static func spread(
        _ count: Int, newestMsAgo: Int64, step: Int64? = nil, now: Timestamp, value: (Int) -> Double
    ) -> [(Timestamp, Double)] {
        guard count > 0 else { return [] }
        let step = step ?? min(Int64(86_400_000), Int64(10 * 365) * 86_400_000 / Int64(count))
        let newest = now.milliseconds - newestMsAgo
        return (0..<count).map { index in
            (Timestamp(milliseconds: newest - Int64(count - 1 - index) * step), value(index))
        }
    }
}
