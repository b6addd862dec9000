import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON coding every cache file uses, and the wording of decoding failures.
///
/// Dates are written as seconds since 2001-01-01 in full `Double` precision, so a value read back is
/// exactly the value saved (RFC 3339 text with milliseconds would round it).
enum CacheFileDecoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let seconds = try container.decode(Double.self)
            // Any number decodes to a Date, but one far outside the calendar traps where it becomes a
            // day (whole seconds in an Int64): a file holding one is unreadable, not a crash later.
            guard dateRange.contains(seconds) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(seconds) is not a date between the years 1 and 9999")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return decoder
    }

    /// The dates a cache file may hold, in seconds since 2001-01-01: 0001-01-01 to 9999-12-31.
    static let dateRange: ClosedRange<Double> = {
        let referenceDay = CalendarDate.daysSince1970(year: 2001, month: 1, day: 1)
        let first = CalendarDate.daysSince1970(year: 1, month: 1, day: 1) - referenceDay
        let end = CalendarDate.daysSince1970(year: 10_000, month: 1, day: 1) - referenceDay
        return Double(first * 86_400)...Double(end * 86_400 - 1)
    }()

    /// Why a file could not be decoded, in words: `the field state.outbox is missing`.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context):
            return "the field \(name(context.codingPath)) is invalid: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "the field \(name(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "the field \(name(context.codingPath)) has the wrong type"
        @unknown default:
            return "\(error)"
        }
    }

    private static func name(_ path: [any CodingKey]) -> String {
        path.isEmpty
            ? "(top level)" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
