/// Numbers as text with a fixed count of decimals (`180.5`, `2.14`), written by hand: the C-style
/// formatting initialiser of `String` links ICU. Halves round away from zero.
///
/// ``format(_:places:)`` writes the machine's way (a dot: CSV, JSON, files); ``shown(_:places:)`` writes
/// what a person reads, with the decimal separator in force (`72,4` in German).
public enum DecimalText {
    /// What separates a number's whole part from its decimals where people read it: a notation, not a
    /// word, so the core keeps it; FitIQWords' `speaking(_:)` sets it with the language.
    @TaskLocal public static var separator = "."

    /// `value` with `places` decimals as people read it where ``separator`` is in force: `72.4`, or
    /// `72,4` in German, Spanish, French and Portuguese.
    public static func shown(_ value: Double, places: Int) -> String {
        decimal(format(value, places: places))
    }

    /// A number written with a dot (`72.4`) with ``separator`` instead (`72,4`).
    public static func decimal(_ machineText: String) -> String {
        separator == "." ? machineText : machineText.replacing(".", with: separator)
    }

    /// `value` with `places` decimals (0…6): `DecimalText.format(180.25, places: 1)` is `180.3`.
    public static func format(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return String(value) }
        let places = max(0, min(6, places))
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e17 else { return String(value) }
        let units = Int64(scaled)
        let whole = String(units / scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return sign + whole }
        return sign + whole + "." + padded(units % scale, width: places)
    }

    /// `value` as written by a person: `13` for 13.0, `12.5` for 12.5.
    public static func plain(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `value` in decimal with leading zeros to `width` digits: `padded(7, width: 2)` is `07`.
    public static func padded(_ value: Int64, width: Int) -> String {
        let digits = String(abs(value))
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }

    /// `padded(_:width:)` for `Int`.
    public static func padded(_ value: Int, width: Int) -> String {
        padded(Int64(value), width: width)
    }
}
