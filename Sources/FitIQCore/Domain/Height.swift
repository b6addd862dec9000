#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Height entry and display in the user's units; heights are stored in centimetres.
///
/// Accepted input: `180.5`, `180.5 cm`, `1.8 m`, `71 in`, `71"`, `5 ft 11 in`, `5'11"`, `5.9 ft`.
/// A written unit always wins; a bare number means centimetres in metric and inches in imperial.
public enum Height {
    /// Allowed heights in centimetres (CONTRACT.md §8).
    public static let allowedRange: ClosedRange<Double> = 50...300
    static let centimetresPerInch = 2.54

    /// Parses what the user typed into centimetres, or throws a ``ValidationError`` naming the rule.
    public static func parse(_ text: String, unitSystem: UnitSystem) throws(ValidationError) -> Double {
        let input = normalized(text)
        guard !input.isEmpty else { throw .required(.height) }
        if let inches = inchesBeyondAFoot(input) {
            throw .invalidFormat(.height, rule: .inchesBelowAFoot(given: inches))
        }
        guard let centimetres = centimetres(from: input, unitSystem: unitSystem) else {
            throw .invalidFormat(.height, rule: .measurementText)
        }
        guard centimetres.isFinite, allowedRange.contains(centimetres) else {
            throw .outOfRange(.height, rule: .allowedRange)
        }
        return centimetres
    }

    /// Formats centimetres for display: `180.5 cm` in metric, `5 ft 11 in` (whole inches) in imperial.
    ///
    /// Any value is shown, never trapped on: heights also come from the server and the cache, unchecked.
    /// One too large for whole inches (or not a number) is shown in centimetres whatever the units.
    public static func format(_ centimetres: Double, unitSystem: UnitSystem) -> String {
        let inches = (centimetres / centimetresPerInch).rounded()
        switch unitSystem {
        case .imperial where inches.isFinite && abs(inches) < 1e15:
            let whole = Int(inches)
            return "\(whole / 12) ft \(whole % 12) in"
        case .metric, .imperial:
            return DecimalText.shown(centimetres, places: 1) + " cm"
        }
    }

    /// The new height an edit asks for (`proposed`, parsed once from what was typed), or `nil` when it
    /// changes nothing.
    ///
    /// A value that displays the same as the current height (the untouched field, or `71` typed over
    /// `5 ft 11 in`) keeps the stored value, so switching units never makes a height drift.
    public static func change(from current: Double?, to proposed: Double, unitSystem: UnitSystem) -> Double? {
        if let current, format(current, unitSystem: unitSystem) == format(proposed, unitSystem: unitSystem) {
            return nil
        }
        return proposed
    }

    private static func normalized(_ text: String) -> String {
        var result = text.trimmingWhitespace().lowercased()
        for (from, to) in [("′", "'"), ("’", "'"), ("″", "\""), ("”", "\""), ("''", "\""), (",", ".")] {
            result = result.replacing(from, with: to)
        }
        return result
    }

    private static var feetAndInches: Regex<(Substring, Substring, Substring)> {
        #/(\d+(?:\.\d+)?)\s*(?:'|ft|feet|foot)\s*(\d+(?:\.\d+)?)\s*(?:"|in|inch|inches)?/#
    }

    /// The inches of a feet-and-inches entry whose inches are 12 or more (`5'13"` → 13), else `nil`.
    private static func inchesBeyondAFoot(_ input: String) -> Double? {
        guard let match = input.wholeMatch(of: feetAndInches), let part = Double(match.2),
            part >= 12
        else { return nil }
        return part
    }

    private static func centimetres(from input: String, unitSystem: UnitSystem) -> Double? {
        if let match = input.wholeMatch(
            of: #/(?<n>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>cm|m|mm|in|inch|inches|"|ft|feet|foot|')?/#)
        {
            guard let value = Double(match.n) else { return nil }
            switch match.unit.map(String.init) {
            case nil: return unitSystem == .metric ? value : value * centimetresPerInch
            case "cm": return value
            case "m": return value * 100
            case "mm": return value / 10
            case "ft", "feet", "foot", "'": return value * 12 * centimetresPerInch
            default: return value * centimetresPerInch
            }
        }
        // Feet and inches together: 5'11", 5' 11, 5 ft 11 in, 5ft11. Inches must be below 12.
        guard let match = input.wholeMatch(of: feetAndInches),
            let whole = Double(match.1), let part = Double(match.2), whole.rounded() == whole, part < 12
        else { return nil }
        return (whole * 12 + part) * centimetresPerInch
    }
}
