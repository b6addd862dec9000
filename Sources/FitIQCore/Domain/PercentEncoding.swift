/// Percent-encoding of text for names that must not carry it as is (a file name, a URL path segment).
public enum PercentEncoding {
    /// `text` with every UTF-8 byte that `keep(byte, index)` refuses written as `%XX`.
    public static func encode(_ text: String, keeping keep: (UInt8, Int) -> Bool) -> String {
        var result = ""
        for (index, byte) in text.utf8.enumerated() {
            if keep(byte, index) {
                result += String(UnicodeScalar(byte))
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// ASCII letters and digits.
    public static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
