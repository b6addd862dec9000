#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The on-disk shape of one cache file: a `schemaVersion` beside one value.
///
/// Each file type is private to the store that owns it, so the domain types never decide the format.
protocol VersionedFileFormat: Codable, Sendable {
    /// The value the file holds.
    associatedtype Value: Sendable
    /// The only version this build reads and writes.
    static var schemaVersion: Int { get }
    /// The version this file says it is.
    var schemaVersion: Int { get }
    /// Wraps `value` for writing.
    init(value: Value)
    /// The value read; throws when the file holds something the domain cannot (an unknown unit system).
    var value: Value { get throws }
    /// Reads a file of an older schema `version`; `nil` when this format reads no older version.
    static func decodeOlder(version: Int, from data: Data, with decoder: JSONDecoder) throws -> Value?
    /// Whether the file is written indented, for people to read; large files are written compact.
    static var isIndented: Bool { get }
    /// The file's bytes for `value`: `JSONEncoder`'s, unless a format writes the same bytes faster.
    static func encoded(_ value: Value) throws -> Data
}

extension VersionedFileFormat {
    static func decodeOlder(version: Int, from data: Data, with decoder: JSONDecoder) throws -> Value? { nil }
    static var isIndented: Bool { true }

    static func encoded(_ value: Value) throws -> Data {
        try (isIndented ? CacheFileDecoding.encoder : CacheFileDecoding.compactEncoder).encode(Self(value: value))
    }
}
