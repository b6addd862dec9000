import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON documents of the apps' exports (Google Takeout's, Garmin's): each is a month or a few
/// thousand points at most, so it is read whole, up to ``maximumBytes``, unlike the tables.
enum JSONDocument {
    /// The largest JSON file read (Takeout's weight files are a few hundred KB).
    static let maximumBytes = 64 << 20

    /// Whether `head`, a file's first bytes, may start a JSON document.
    static func mayStart(_ head: [UInt8]) -> Bool {
        guard let first = head.first(where: { !(" \t\r\n".utf8.contains($0)) }) else { return false }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// `data` decoded as `type`; the place the text broke the shape expected is the error's reason.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ImportError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .unreadableJSON(describe(error))
        } catch {
            throw .unreadableJSON(TextSanitizer.sanitize(String(describing: error)))
        }
    }

    /// Where the text broke the shape expected: `[3].weight: expected a number`.
    static func describe(_ error: DecodingError) -> String {
        let (path, said): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                (context.codingPath, context.debugDescription)
            @unknown default: ([], "")
            }
        let place = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return TextSanitizer.sanitize(place.isEmpty ? said : "\(place): \(said)")
    }
}
