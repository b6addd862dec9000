import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// fitiq-tui's own JSON export (`export --json`): an array of rows with the CSV's keys, `logged_at`,
/// `metric`, `value` (a number), `unit`, `source`, `id`, `notes` (and `trend` with `--trend`), then the
/// goals set on the exporting machine as rows whose source is `goal`. Each row is read as
/// ``FitIQExport`` says; a key of the wrong JSON type is that entry's bad row, not the file's.
enum FitIQJSON {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, _ in FitIQJSON.recognise(head) },
            read: { data, _, _, _, file in
                FitIQJSON.read(try JSONDocument.decode([FitIQJSON.Row].self, from: data), into: &file)
            }))

    /// Whether `head`, the document's first bytes, is an array of rows with the export's first keys.
    static func recognise(_ head: String) -> Bool {
        head.drop(while: \.isWhitespace).hasPrefix("[")
            && ["\"logged_at\"", "\"metric\"", "\"unit\"", "\"source\""].allSatisfy(head.contains)
    }

    /// One row: each key's JSON value, whatever its type (an entry that is no object has none).
    struct Row: Decodable {
        var metric: Value?
        var loggedAt: Value?
        var value: Value?
        var unit: Value?
        var source: Value?
        var notes: Value?

        enum CodingKeys: String, CodingKey {
            case metric, loggedAt = "logged_at", value, unit, source, notes
        }

        init(from decoder: any Decoder) throws {
            guard let row = try? decoder.container(keyedBy: CodingKeys.self) else { return }
            metric = try row.decodeIfPresent(Value.self, forKey: .metric)
            loggedAt = try row.decodeIfPresent(Value.self, forKey: .loggedAt)
            value = try row.decodeIfPresent(Value.self, forKey: .value)
            unit = try row.decodeIfPresent(Value.self, forKey: .unit)
            source = try row.decodeIfPresent(Value.self, forKey: .source)
            notes = try row.decodeIfPresent(Value.self, forKey: .notes)
        }
    }

    /// A JSON value as a row's reader tells them apart: a number, text, or anything else.
    enum Value: Decodable, Equatable {
        case number(Double)
        case text(String)
        case other

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else {
                self = .other
            }
        }
    }

    static func read(_ rows: [Row], into file: inout FileReadings) {
        for (index, row) in rows.enumerated() {
            let line = index + 1
            let texts: [(Row.CodingKeys, Value?)] = [
                (.metric, row.metric), (.loggedAt, row.loggedAt), (.unit, row.unit), (.source, row.source),
                (.notes, row.notes),
            ]
            // A key written as a number, a list or an object: the entry cannot be read as it was meant.
            if let wrong = texts.first(where: { $0.1 != nil && $0.1.flatMap(Self.text) == nil }) {
                file.refuse(line, .text(key: wrong.0.stringValue), isEntry: true)
                continue
            }
            let number: Double? = if case .number(let number) = row.value { number } else { nil }
            let entry = FitIQExport.Entry(
                metric: row.metric.flatMap(Self.text), loggedAt: row.loggedAt.flatMap(Self.text), value: number,
                unit: row.unit.flatMap(Self.text), source: row.source.flatMap(Self.text),
                notes: row.notes.flatMap(Self.text))
            FitIQExport.read(entry, line: line, isEntry: true, into: &file)
        }
    }

    private static func text(_ value: Value) -> String? {
        if case .text(let text) = value { text } else { nil }
    }
}
