/// Numbers as text with a fixed count of decimals (`180.5`, `2.14`), written by hand: the C-style
/// formatting initialiser of `String` links ICU. Halves round away from zero.
///
/// ``format(_:places:)`` writes the machine's way (a dot: CSV, JSON, files); ``shown(_:places:)`` writes
/// what a person reads, with the decimal separator in force (`72,4` in German).
public enum DecimalText {
    /// What separates a number's whole part from its decimals where people read it: a notation, not a
    /// word, so the core keeps it; FitIQWords' `speaking(_:)` sets it with the language.
    @TaskLocal public static var separator = "."
    /// What groups a long number's digits by three where people read it (`100,000`, `100.000` in
    /// German, a narrow space in French); set with ``separator``.
    @TaskLocal public static var groupSeparator = ","

    /// `value` with `places` decimals as people read it where ``separator`` is in force: `72.4`, or
    /// `72,4` in German, Spanish, French and Portuguese.
    public static func shown(_ value: Double, places: Int) -> String {
        decimal(format(value, places: places))
    }

    /// ``shown(_:places:)`` with the digits of a whole part of four digits or more grouped by three:
    /// `100,000`, `4,000.5`; `100.000` in German.
    public static func grouped(_ value: Double, places: Int) -> String {
        let text = format(value, places: places)
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let whole = unsigned.prefix { $0 != "." }
        let fraction = unsigned.dropFirst(whole.count).dropFirst()
        guard whole.count >= 4, whole.allSatisfy(\.isNumber) else { return decimal(text) }
        var groups: [Substring] = []
        var end = whole.endIndex
        while end > whole.startIndex {
            let start = whole.index(end, offsetBy: -3, limitedBy: whole.startIndex) ?? whole.startIndex
            groups.insert(whole[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: groupSeparator) + (fraction.isEmpty ? "" : separator + fraction)
    }

    /// The fewest decimals (0…2) that write `value` to a hundredth: 0 for `10`, 2 for `0.01`.
    public static func places(_ value: Double) -> Int {
        let hundredths = (value * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return 0 }
        return hundredths.truncatingRemainder(dividingBy: 10) == 0 ? 1 : 2
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
