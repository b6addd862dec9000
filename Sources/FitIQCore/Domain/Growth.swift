#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How fast a child or a teenager grows: the height gained a year, over the last year of heights.
public enum Growth {
    /// From this age on, a height's change is no longer growth worth a rate.
    public static let youngUntilAge = 21

    /// Centimetres a year from the height about a year before the latest one to the latest (the
    /// height logged 6 to 18 months before it that is nearest to a year), for a person younger than
    /// ``youngUntilAge`` on `today`; `nil` for an adult, an unknown date of birth, or heights too close
    /// together in time.
    ///
    /// - Parameter heights: the height history, in any order.
    public static func perYear(
        _ heights: some Collection<ProgressEntry>, dateOfBirth: CalendarDate?, today: CalendarDate
    ) -> Double? {
        guard let dateOfBirth, dateOfBirth.years(until: today) < youngUntilAge else { return nil }
        let finite = heights.filter(\.quantity.isFinite)
        guard let latest = finite.max(by: { $0.loggedAt < $1.loggedAt }) else { return nil }
        let year = 365.25 * 86_400
        let before = finite.filter {
            let gap = latest.loggedAt.timeIntervalSince($0.loggedAt)
            return gap >= year / 2 && gap <= year * 1.5
        }
        guard
            let past = before.min(by: {
                abs(latest.loggedAt.timeIntervalSince($0.loggedAt) - year)
                    < abs(latest.loggedAt.timeIntervalSince($1.loggedAt) - year)
            })
        else { return nil }
        return (latest.quantity - past.quantity) / (latest.loggedAt.timeIntervalSince(past.loggedAt) / year)
    }
}
