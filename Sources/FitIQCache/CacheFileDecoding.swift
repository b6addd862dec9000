import FitIQCore
import FitIQWords

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
        // A sync problem is kept as data and, beside it, in English (for people and older builds).
        encoder.userInfo[SyncProblem.inEnglish] = SyncProblem.englishWording
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        return encoder
    }

    /// The same coding without indentation, for files read by programs rather than people.
    static var compactEncoder: JSONEncoder {
        let encoder = encoder
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let seconds = try container.decode(Double.self)
            // Calendar arithmetic on a date this far away overflows (a damaged file: the program never
            // writes one; a server's RFC 3339 dates stay within a few thousand years).
            guard abs(seconds) <= maximumSeconds else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\(seconds) is not a date: it is more than 3 million years from 2001")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return decoder
    }

    /// About 3.2 million years, in seconds: far beyond any real date, far below an overflow.
    static let maximumSeconds: Double = 1e14

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
