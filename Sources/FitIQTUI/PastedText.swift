import FitIQLocalization

/// Text pasted or written in an external editor, made fit for a one-line field.
enum PastedText {
    /// `text` on one line: each line break or tab (a run of them counts once) becomes one space, line
    /// breaks at either end are dropped, and other control characters are dropped. `changes` says, in
    /// words, what was changed (empty when nothing was).
    static func oneLine(_ text: String) -> (text: String, changes: [String]) {
        var result = ""
        var brokeLines = false
        var droppedControls = false
        var pendingSpace = false
        for character in text {
            if character.isNewline || character == "\t" {
                brokeLines = true
                pendingSpace = !result.isEmpty
                continue
            }
            guard TextField.isPrintable(character) else {
                droppedControls = true
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        var changes: [String] = []
        if brokeLines { changes.append(tr("line breaks and tabs became spaces")) }
        if droppedControls { changes.append(tr("control characters were dropped")) }
        return (result, changes)
    }

    /// The sentence telling what a paste changed, e.g. `Pasted as one line: line breaks and tabs became spaces.`
    static func summary(_ changes: [String], what: String? = nil) -> String? {
        guard !changes.isEmpty else { return nil }
        return tr(
            "{what}: {changes}.",
            ["what": what ?? tr("Pasted as one line"), "changes": changes.joined(separator: "; ")])
    }
}

extension TextField {
    /// Inserts `text` at the cursor, character by character, up to the length limit; returns whether
    /// all of it fitted.
    @discardableResult
    public mutating func insert(text: String) -> Bool {
        for character in text {
            let before = self.text
            handle(.character(character))
            if self.text == before { return false }
        }
        return true
    }

    /// Moves the cursor to the start of the word before it (Alt-B, Ctrl-←).
    mutating func moveWordLeft() {
        cursor = wordStart(before: cursor)
    }

    /// Moves the cursor past the end of the word after it (Alt-F, Ctrl-→).
    mutating func moveWordRight() {
        let characters = Array(text)
        var position = cursor
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        while position < characters.count, !characters[position].isWhitespace { position += 1 }
        cursor = position
    }

    /// Deletes the word before the cursor and the spaces after it (Ctrl-W).
    mutating func deleteWordBefore() {
        let start = wordStart(before: cursor)
        text.removeSubrange(stringIndex(start)..<stringIndex(cursor))
        cursor = start
    }

    private func wordStart(before position: Int) -> Int {
        let characters = Array(text)
        var start = min(position, characters.count)
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }
}
