extension StringProtocol {
    /// Without leading and trailing spaces and tabs (horizontal whitespace; newlines stay).
    public func trimmingSpaces() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// Without leading and trailing whitespace, newlines included.
    public func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ isDropped: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isDropped($0) }), let last = lastIndex(where: { !isDropped($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
