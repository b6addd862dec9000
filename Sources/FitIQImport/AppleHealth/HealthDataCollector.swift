import CLibXML2
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects the few values fitiq-tui needs from libxml2's start-element events.
///
/// Element and attribute names are compared bytewise in libxml2's own buffers; Strings are built
/// only for `<ExportDate>`, `<Me>` and Height, BodyMass and BodyFatPercentage records, so the
/// millions of other records cost a first-byte check and a few length comparisons of their type each.
///
/// A record nested in a `<Correlation>` also appears at the top level of the export (the DTD says
/// so): it is read there only.
final class HealthDataCollector {
    /// An error libxml2 reported while parsing.
    struct ParserError: Equatable {
        var code: Int32
        var line: Int
        var message: String
    }

    /// The parser context, so an event handler can stop it.
    var context: xmlParserCtxtPtr?
    private let libxml2: LibXML2
    private(set) var exportedAt: Date?
    private(set) var biologicalSex: HealthValue<BiologicalSex> = .missing
    private(set) var dateOfBirth: HealthValue<CalendarDate> = .missing
    private(set) var samples: [MeasurementSample] = []
    /// Steps, sleep, food and the rest, a day's total each once read (``HealthActivityRecords``).
    private(set) var activity = ActivityDays()
    /// Activity records refused (a negative or absurd value, a stretch that ends before it starts), by
    /// line: the first ``refusedKept`` of them.
    private(set) var refused: [BadRow] = []
    /// How many activity records were refused in all.
    private(set) var refusedCount = 0
    static let refusedKept = 20
    /// The sources of activity records seen, as their bytes, with their number in ``activity``: an
    /// export has a few (a phone, a watch, some apps), and a record compares its source's bytes alone.
    private var sourcesSeen: [(name: [UInt8], number: ActivityDays.Source)] = []
    /// The root element's name, once it has started.
    private(set) var rootElement: String?
    /// The first error libxml2 reported (warnings are ignored).
    private(set) var firstError: ParserError?
    private var sawMe = false
    private var sawExportDate = false
    /// How many elements are open (started and not yet ended).
    private var depth: Int32 = 0
    /// The ``depth`` of the open `<Correlation>` whose records are skipped; 0 when none is open.
    private var correlationDepth: Int32 = 0

    init(libxml2: LibXML2) {
        self.libxml2 = libxml2
    }

    /// Elements nested deeper than this fail the read. libxml2 only limits depth when it builds a
    /// tree; its SAX name stack would otherwise grow with the nesting (real exports nest 4 deep).
    /// The depth is counted here from the start and end events (libxml2's parser context, which
    /// also counts it, is opaque to this module).
    static let maxDepth: Int32 = 256

    /// Handles one start tag; `attributes` holds five pointers per attribute as libxml2's SAX2 passes them.
    func startElement(_ name: UnsafePointer<UInt8>, attributeCount: Int, attributes: SAXAttributes) {
        if depth >= Self.maxDepth {
            let line = context.map { Int(libxml2.sax2GetLineNumber($0)) } ?? 0
            fail(line: line, "elements are nested more than \(Self.maxDepth) deep")
            return
        }
        depth += 1
        if rootElement == nil {
            rootElement = String(cString: name)
            if !Self.equals(name, "HealthData") { stop() }
            return
        }
        switch name[0] {
        case UInt8(ascii: "R"):
            if correlationDepth == 0 && Self.equals(name, "Record") { record(attributeCount, attributes) }
        case UInt8(ascii: "C"):
            if correlationDepth == 0 && Self.equals(name, "Correlation") { correlationDepth = depth }
        case UInt8(ascii: "M"):
            if !sawMe && Self.equals(name, "Me") { me(attributeCount, attributes) }
        case UInt8(ascii: "E"):
            if !sawExportDate && Self.equals(name, "ExportDate") {
                sawExportDate = true
                exportedAt = Self.value(of: "value", attributeCount, attributes).flatMap(HealthTimestamp.parse)
            }
        default:
            return
        }
    }

    /// Handles one end tag (also sent for an empty-element tag).
    func endElement() {
        if depth == correlationDepth { correlationDepth = 0 }
        depth -= 1
    }

    /// Records an error from libxml2 and stops the parser; warnings are ignored.
    func report(_ error: UnsafePointer<xmlError>) {
        guard Int(error.pointee.level) >= XML_ERR_ERROR, firstError == nil else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        firstError = ParserError(
            code: error.pointee.code, line: Int(error.pointee.line),
            message: message.trimmingWhitespace())
        stop()
    }

    private func fail(line: Int, _ message: String) {
        if firstError == nil { firstError = ParserError(code: -1, line: line, message: message) }
        stop()
    }

    private func stop() {
        if let context { libxml2.stopParser(context) }
    }

    /// Reads a record of a type fitiq-tui takes; `sourceName` and `device` are not read: the same
    /// reading written by several sources is one reading.
    private func record(_ count: Int, _ attributes: SAXAttributes) {
        guard let type = Self.attribute("type", count, attributes) else { return }
        guard let kind = Self.recordKind(type) else {
            if let activityKind = HealthActivityRecords.kind(of: type) {
                activityRecord(activityKind, count, attributes)
            }
            return
        }
        guard let value = Self.value(of: "value", count, attributes),
            let unit = Self.value(of: "unit", count, attributes),
            let converted = kind.convert(value, unit),
            let start = Self.attribute("startDate", count, attributes),
            let measuredAt = HealthTimestamp.parse(start)
        else { return }
        samples.append(MeasurementSample(kind.metric, value: converted, measuredAt: measuredAt))
    }

    /// Reads an activity record in one pass over its attributes: its value in its unit, its start (whose
    /// written day is the sample's), its end, and its source (the device or app that wrote it: several
    /// sources of one day are never added).
    private func activityRecord(_ kind: HealthActivityRecords.Kind, _ count: Int, _ attributes: SAXAttributes) {
        guard let attributes else { return }
        var value: UnsafeBufferPointer<UInt8>?
        var unit: UnsafeBufferPointer<UInt8>?
        var start: UnsafeBufferPointer<UInt8>?
        var end: UnsafeBufferPointer<UInt8>?
        var source: UnsafeBufferPointer<UInt8>?
        for index in 0..<count {
            let slot = attributes + index * 5
            guard let name = slot[0], let first = slot[3], let last = slot[4], last >= first else { continue }
            let text = UnsafeBufferPointer(start: first, count: last - first)
            switch name[0] {
            case UInt8(ascii: "v"): if Self.equals(name, "value") { value = text }
            case UInt8(ascii: "u"): if Self.equals(name, "unit") { unit = text }
            case UInt8(ascii: "s"):
                if Self.equals(name, "startDate") {
                    start = text
                } else if Self.equals(name, "sourceName") {
                    source = text
                }
            case UInt8(ascii: "e"): if Self.equals(name, "endDate") { end = text }
            default: continue
            }
        }
        guard let value, let startText = start, let begun = HealthTimestamp.parseLocal(startText) else { return }
        switch kind {
        case .sample(let slot, let metric, let convert):
            guard let number = HealthActivityRecords.number(value), let unit,
                let converted = convert(number, unit)
            else { return }
            guard converted != 0 else { return }
            guard converted.isFinite, converted > 0, converted <= metric.allowedRange.upperBound else {
                refuse(.value(metric.rangeError))
                return
            }
            activity.add(slot, converted, at: begun, source: sourceNumber(source))
        case .sleep:
            guard HealthActivityRecords.isAsleep(value), let endText = end,
                let ended = HealthTimestamp.parseLocal(endText)
            else { return }
            let hours = (ended.at.timeIntervalSince1970 - begun.at.timeIntervalSince1970) / 3600
            guard hours >= 0 else {
                refuse(.endsBeforeStart)
                return
            }
            guard hours <= Metric.sleep.allowedRange.upperBound else {
                refuse(.value(Metric.sleep.rangeError))
                return
            }
            activity.addAsleep(from: begun.at, to: ended, source: sourceNumber(source))
        }
    }

    /// Keeps a refused record's line and rule (the first few; all are counted).
    private func refuse(_ rule: BadRow.Rule) {
        refusedCount += 1
        guard refused.count < Self.refusedKept else { return }
        let line = context.map { Int(libxml2.sax2GetLineNumber($0)) } ?? 0
        refused.append(BadRow(line: line, rule: rule))
    }

    /// The number in ``activity`` of the source whose name is `name`: a source seen before costs a
    /// comparison of its bytes with each seen (`memcmp`), no String.
    private func sourceNumber(_ name: UnsafeBufferPointer<UInt8>?) -> ActivityDays.Source {
        let bytes = name ?? UnsafeBufferPointer(start: nil, count: 0)
        for seen in sourcesSeen where seen.name.count == bytes.count {
            let same = seen.name.withUnsafeBufferPointer { known in
                guard let left = known.baseAddress, let right = bytes.baseAddress else { return true }
                return memcmp(left, right, bytes.count) == 0
            }
            if same { return seen.number }
        }
        let text = TextSanitizer.sanitize(String(decoding: bytes, as: UTF8.self))
        let number = activity.source("apple-health/" + text, app: .health)
        // Past a few hundred sources (no real export has them), a new one is looked up by its name.
        if sourcesSeen.count < 256 { sourcesSeen.append((Array(bytes), number)) }
        return number
    }

    /// A record type fitiq-tui takes: its metric and how a value in the record's unit becomes one in
    /// the metric's.
    enum RecordKind {
        case height, bodyMass, bodyFat

        var metric: Metric {
            switch self {
            case .height: .height
            case .bodyMass: .weight
            case .bodyFat: .bodyFat
            }
        }

        func convert(_ value: String, _ unit: String) -> Double? {
            switch self {
            case .height: HealthValueMapping.centimetres(value: value, unit: unit)
            case .bodyMass: HealthValueMapping.kilograms(value: value, unit: unit)
            case .bodyFat: HealthValueMapping.percent(value: value, unit: unit)
            }
        }
    }

    /// The kind of a record's `type`, or `nil` for the types fitiq-tui skips. The three names differ in
    /// length (30, 32 and 41 bytes), so another type costs three length comparisons, or one memcmp
    /// when its length matches.
    static func recordKind(_ type: UnsafeBufferPointer<UInt8>) -> RecordKind? {
        if equals(type, "HKQuantityTypeIdentifierHeight") { return .height }
        if equals(type, "HKQuantityTypeIdentifierBodyMass") { return .bodyMass }
        if equals(type, "HKQuantityTypeIdentifierBodyFatPercentage") { return .bodyFat }
        return nil
    }

    private func me(_ count: Int, _ attributes: SAXAttributes) {
        sawMe = true
        biologicalSex = HealthValueMapping.biologicalSex(
            Self.value(of: "HKCharacteristicTypeIdentifierBiologicalSex", count, attributes))
        dateOfBirth = HealthValueMapping.dateOfBirth(
            Self.value(of: "HKCharacteristicTypeIdentifierDateOfBirth", count, attributes))
    }
}

/// The `const xmlChar **attributes` of a SAX2 start-element event.
typealias SAXAttributes = UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

extension HealthDataCollector {
    /// Whether the NUL-terminated `name` is exactly `literal` (reads no byte past a mismatch).
    static func equals(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let expected = literal.utf8Start
        for index in 0..<literal.utf8CodeUnitCount where name[index] != expected[index] { return false }
        return name[literal.utf8CodeUnitCount] == 0
    }

    /// Whether an attribute value (not NUL-terminated) is exactly `literal`.
    static func equals(_ value: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard value.count == literal.utf8CodeUnitCount, let base = value.baseAddress else { return false }
        return memcmp(base, literal.utf8Start, value.count) == 0
    }

    /// The value bytes of the attribute named `name`, if present.
    static func attribute(_ name: StaticString, _ count: Int, _ attributes: SAXAttributes) -> UnsafeBufferPointer<
        UInt8
    >? {
        guard let attributes else { return nil }
        for index in 0..<count {
            let slot = attributes + index * 5
            guard let localName = slot[0], equals(localName, name),
                let start = slot[3], let end = slot[4], end >= start
            else { continue }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    /// The value of the attribute named `name` as a String, if present.
    static func value(of name: StaticString, _ count: Int, _ attributes: SAXAttributes) -> String? {
        attribute(name, count, attributes).map { String(decoding: $0, as: UTF8.self) }
    }
}
