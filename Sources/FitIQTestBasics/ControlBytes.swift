extension String {
    /// Whether the text holds no escape or other control character (a line feed and a tab allowed): what
    /// the program may print, or save from what was typed.
    public var hasNoControlCharacters: Bool {
        !unicodeScalars.contains { ($0.value < 32 && $0 != "\n" && $0 != "\t") || $0.value == 127 }
    }
}
