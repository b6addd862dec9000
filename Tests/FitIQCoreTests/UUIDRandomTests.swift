import Foundation
import Testing

@testable import FitIQCore

/// Local ids come from the system's generator, as version 4 UUIDs.
struct UUIDRandomTests {
    @Test func systemUUIDsAreVersion4AndDistinct() {
        let made = (0..<1_000).map { _ in UUID.generated() }
        #expect(Set(made).count == 1_000)
        #expect(made.allSatisfy { $0.uuid.6 >> 4 == 4 && $0.uuid.8 >> 6 == 0b10 })
        #expect(ProgressEntry(quantity: 170, loggedAt: Date(), source: .manual).id.uuid.6 >> 4 == 4)
    }
}
