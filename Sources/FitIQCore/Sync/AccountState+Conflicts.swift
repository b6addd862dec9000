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
    /// The metadata key a field name of the command line and JSON names (`height` is not one).
    static func key(forField field: String) -> ProfileMetadata.Key? {
        switch field {
        case "name": .name
        case "bio": .bio
        case "units": .preferredUnitSystem
        case "language": .languageCode
        default: nil
        }
    }

    static func field(for key: ProfileMetadata.Key) -> String {
        switch key {
        case .name: "name"
        case .bio: "bio"
        case .preferredUnitSystem: "units"
        case .languageCode: "language"
        }
    }

    /// Marks the pending fields that `remote` (the server's profile now) conflicts with.
    ///
    /// A change another sender has on its way is not judged (`isHeld`): the server may already hold
    /// what it carries while this machine holds a newer edit. Its answer moves the base on, and the next
    /// check judges it.
    mutating func detectConflicts(_ remote: RemoteProfile, isHeld: (Claim) -> Bool = { _ in true }) {
        func judged(_ delivery: Delivery) -> Bool { delivery.claim.map { !isHeld($0) } ?? true }
        if var change = outbox.metadata, judged(change.delivery), let local = profile?.metadata {
            for key in change.keys {
                guard let base = change.bases[key] else { continue }
                let now = remote.metadata.value(of: key)
                if now == local.value(of: key) {
                    change.conflicts.remove(key)  // the same change on both sides
                } else if now != base, !(acknowledgedValues[Self.field(for: key)] ?? []).contains(now) {
                    change.conflicts.insert(key)
                } else {
                    change.conflicts.remove(key)  // the base again, or this account's own earlier value
                }
            }
            outbox.metadata = change
        }
        if var change = outbox.physical, judged(change.delivery), change.includesHeight, change.hasHeightBase,
            let local = profile?.heightCm
        {
            func same(_ a: Double?, _ b: Double?) -> Bool {
                switch (a, b) {
                case (nil, nil): true
                case (let a?, let b?): abs(a - b) < 0.05
                default: false
                }
            }
            if same(remote.heightCm, local) {
                change.heightConflict = false
            } else if let now = remote.heightCm, !same(now, change.heightBase),
                !(acknowledgedValues["height"] ?? []).contains(Self.heightText(now))
            {
                change.heightConflict = true
            } else {
                change.heightConflict = false
            }
            outbox.physical = change
        }
    }

    mutating func acknowledge(_ field: String, _ value: String) {
        var values = (acknowledgedValues[field] ?? []).filter { $0 != value }
        values.append(value)
        acknowledgedValues[field] = Array(values.suffix(20))
    }

    /// A height as compared with an acknowledged one (to the millimetre).
    static func heightText(_ centimetres: Double) -> String {
        String((centimetres * 10).rounded() / 10)
    }

    /// Every conflicted field with both values.
    public var conflicts: [FieldConflict] {
        var found: [FieldConflict] = []
        if let change = outbox.metadata, let local = profile?.metadata, let server = serverCopy?.metadata {
            for key in change.conflicts.sorted() {
                found.append(
                    FieldConflict(
                        field: Self.field(for: key), local: local.value(of: key), server: server.value(of: key)))
            }
        }
        if let change = outbox.physical, change.heightConflict, let local = profile?.heightCm {
            let units = profile?.preferredUnitSystem ?? .metric
            found.append(
                FieldConflict(
                    field: "height", local: Height.format(local, unitSystem: units),
                    server: serverCopy?.heightCm.map { Height.format($0, unitSystem: units) } ?? "none"))
        }
        return found
    }

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
                change.heightBase = serverCopy?.heightCm
                change.revision += 1
                outbox.physical = change
            } else {
                if let profile, let server = serverCopy?.heightCm {
                    var physical = profile.physical
                    physical.heightCm = server
                    self.profile = profile.updatingPhysical(physical)
                }
                change.includesHeight = false
                outbox.physical = change.includesBiologicalSex ? change : nil
            }
            return true
        }
        guard let key = Self.key(forField: field), var change = outbox.metadata, change.conflicts.contains(key) else {
            return false
        }
        change.conflicts.remove(key)
        if keepLocal {
            change.bases[key] = serverCopy?.metadata.value(of: key)
            change.revision += 1
            outbox.metadata = change
        } else {
            if let profile, let server = serverCopy?.metadata {
                self.profile = profile.updatingMetadata(profile.metadata.taking([key], from: server))
            }
            change.keys.remove(key)
            change.bases[key] = nil
            outbox.metadata = change.keys.isEmpty ? nil : change
        }
        return true
    }
}
