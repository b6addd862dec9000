import Foundation

/// Reading a screen drawn in the pseudo-language `qps`, where every message of ours is bracketed
/// (`[Ƥŕöƒîļé~~~]`): whatever shows outside brackets is someone else's text (the user's data, numbers,
/// units, key names) or a message that escaped translation.
public enum PseudoLanguageScreen {
    /// Key names, which hints and the help show as they are.
    public static let keyNames: Set<String> = [
        "Enter", "Esc", "Tab", "Shift-Tab", "Ctrl-S", "Ctrl-R", "PgUp", "PgDn", "Home", "End", "Backspace", "Delete",
    ]

    /// The words with letters that `lines` shows outside brackets and `isAllowed` does not accept (a word
    /// of one letter is a key and always accepted). A word is letters with `-`, `@`, `.`, `:` and `/`, its
    /// leading and trailing punctuation trimmed.
    ///
    /// A message wrapped over lines opens on one and closes on a later one; one cut by a box drawn over it
    /// may close without opening, and its padding (`~`) then ends it: its last word before the `~` is ours.
    public static func wordsOutsideBrackets(in lines: [String], allowing isAllowed: (String) -> Bool) -> [String] {
        var leftovers: [String] = []
        var carried = 0
        for line in lines {
            var outside = ""
            let close = line.firstIndex(of: "]")
            let closesFirst = close.map { $0 < (line.firstIndex(of: "[") ?? line.endIndex) } ?? false
            var depth = max(carried, closesFirst ? 1 : 0)
            for character in line {
                if character == "[" {
                    depth += 1
                } else if character == "]" {
                    depth = max(0, depth - 1)
                } else if character == "~" && depth == 0 {
                    while let last = outside.last, last == " " { outside.removeLast() }
                    while let last = outside.last, last != " ", last != "│" { outside.removeLast() }
                } else if depth == 0 {
                    outside.append(character)
                }
            }
            carried = min(depth, 1)
            let words = outside.split {
                !($0.isLetter || $0 == "-" || $0 == "@" || $0 == "." || $0 == ":" || $0 == "/")
            }
            for word in words.map(String.init) where word.contains(where: \.isLetter) {
                let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: ".:-/"))
                guard trimmed.count > 1, !keyNames.contains(trimmed), !isAllowed(trimmed) else { continue }
                leftovers.append(trimmed)
            }
        }
        return leftovers
    }
}
