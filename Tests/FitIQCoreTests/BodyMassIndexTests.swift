import FitIQCore
import Foundation
import Testing

/// BMI is derived from the latest weight and the height at that weight's date, with the WHO adult
/// category only from age 20.
struct BodyMassIndexTests {
    @Test(arguments: [
        (18.4, BodyMassIndex.Category.underweight),
        (18.45, .healthy),  // shown as 18.5
        (24.9, .healthy),
        (24.96, .overweight),  // shown as 25.0
        (29.9, .overweight),
        (30, .obese),
    ])
    func theCategoryFollowsTheValueAsShown(_ value: Double, _ category: BodyMassIndex.Category) {
        #expect(BodyMassIndex.Category(value) == category)
    }

    @Test func theHeightAtTheWeightsDateIsUsedNotTodays() throws {
        let day: TimeInterval = 86_400
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        var state = AccountState(
            profile: UserProfile(
                identity: AccountIdentity(userId: "u", email: "e@example.com"),
                metadata: ProfileMetadata(name: "Sam"),
                physical: PhysicalProfile(heightCm: 190, dateOfBirth: CalendarDate(year: 1990, month: 1, day: 1))))
        state.record(.height, 160, measuredAt: now - 400 * day, source: .manual)
        state.record(.weight, 64, measuredAt: now - 300 * day, source: .manual)
        state.record(.height, 190, measuredAt: now - 10 * day, source: .manual)
        // 64 kg at 1.60 m, the height then: 25.0, overweight. Today's 1.90 m would give 17.7.
        let bmi = try #require(BodyMassIndex.latest(in: state, timeZone: .utc))
        #expect(bmi.value == 25)
        #expect(bmi.category == .overweight)
        #expect(bmi.description == "25.0 · overweight (25–29.9)")
    }

    @Test func underTwentyTheValueIsShownWithoutTheAdultCategory() throws {
        let at = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28
        let nineteen = BodyMassIndex(
            kilograms: 50, centimetres: 170, at: at, dateOfBirth: CalendarDate(year: 2007, month: 1, day: 1),
            timeZone: .utc)
        #expect(nineteen?.category == nil)
        #expect(nineteen?.description == "17.3 · adult ranges do not apply")
        let twenty = BodyMassIndex(
            kilograms: 50, centimetres: 170, at: at, dateOfBirth: CalendarDate(year: 2006, month: 5, day: 28),
            timeZone: .utc)
        #expect(twenty?.category == .underweight)
        #expect(BodyMassIndex.value(kilograms: 70, centimetres: 0) == nil)
    }

    @Test func noWeightOrNoHeightMeansNoBMI() {
        var state = AccountState(
            profile: UserProfile(
                identity: AccountIdentity(userId: "u", email: "e@example.com"), metadata: ProfileMetadata(name: "Sam")))
        #expect(BodyMassIndex.latest(in: state, timeZone: .utc) == nil)
        state.record(.weight, 70, measuredAt: Date(timeIntervalSince1970: 1_780_000_000), source: .manual)
        #expect(BodyMassIndex.latest(in: state, timeZone: .utc) == nil)
    }
}
