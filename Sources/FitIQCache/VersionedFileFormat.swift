/// The on-disk shape of one cache file: a `schemaVersion` beside one value.
///
/// Each file type is private to the store that owns it, so the domain types never decide the format.
protocol VersionedFileFormat: Codable, Sendable {
    /// The value the file holds.
    associatedtype Value: Sendable
    /// The only version this build reads and writes.
    static var schemaVersion: Int { get }
    /// Wraps `value` for writing.
    init(value: Value)
    /// The value read; throws when the file holds something the domain cannot (an unknown unit system).
    var value: Value { get throws }
}
