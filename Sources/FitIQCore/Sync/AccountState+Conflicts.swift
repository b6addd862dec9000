#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A field edited here while another device changed it on the server to something else.
public struct FieldConflict: Sendable, Equatable {
    /// `name`, `bio`, `units`, `language` or `height`.
    public var field: String
    /// This machine's value and the server's, as shown to people.
    public var local: String
    public var server: String

    public init(field: String, local: String, server: String) {
        self.field = field
        self.local = local
        self.server = server
    }
}

/// Three-way conflicts per field: the server value an edit was made from, the edit, and the server's
/// value now. A field is conflicted when the server's value has changed since and differs from the
/// edit; two devices making the same change is no conflict.
extension AccountRecord {
    /// Settles the conflict on `field`: `keepLocal` sends this machine's value (over the server's),
    /// otherwise the server's value is taken here and this machine's dropped.
    ///
    /// - Returns: whether the field was conflicted.
    @discardableResult
    public mutating func resolve(_ field: String, keepLocal: Bool) -> Bool {
        if field == "height" {
            guard var change = outbox.physical, change.heightConflict else { return false }
            change.heightConflict = false
            if keepLocal {
                change.heightBase = server.copy?.heightCm
                change.revision += 1
                outbox.physical = change
            } else {
                if let profile, let server = server.copy?.heightCm {
                    var physical = profile.physical
                    physical.heightCm = server
                    self.profile = profile.updatingPhysical(physical)
                }
                change.includesHeight = false
                outbox.physical = change.includesBiologicalSex ? change : nil
            }
            return true
        }
        guard let key = ServerRecord.key(forField: field), var change = outbox.metadata, change.conflicts.contains(key)
        else {
            return false
        }
        change.conflicts.remove(key)
        if keepLocal {
            change.bases[key] = server.copy?.metadata.value(of: key)
            change.revision += 1
            outbox.metadata = change
        } else {
            if let profile, let server = server.copy?.metadata {
                self.profile = profile.updatingMetadata(profile.metadata.taking([key], from: server))
            }
            change.keys.remove(key)
            change.bases[key] = nil
            outbox.metadata = change.keys.isEmpty ? nil : change
        }
        return true
    }
}
