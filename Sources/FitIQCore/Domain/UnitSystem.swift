/// The units a user reads and types measurements in.
public enum UnitSystem: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case metric
    case imperial

    public var description: String { rawValue }

    /// The other unit system (the TUI's toggle).
    public var toggled: UnitSystem { self == .metric ? .imperial : .metric }
}
