#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An instant with the wall clock it was read on: the local day a sample belongs to is the one its file
/// wrote (an offset, a zone, or the zone of the options), not the one of the machine reading it.
public struct LocalInstant: Sendable, Equatable {
    /// The instant.
    public var at: Date
    /// Seconds since 1970 on the local wall clock at ``at``.
    public var wallSeconds: Int64

    /// `at`, read on a clock `offset` seconds east of UTC.
    public init(_ at: Date, offsetSeconds offset: Int) {
        self.at = at
        let seconds = at.timeIntervalSince1970
        wallSeconds = (seconds.isFinite ? Int64(seconds.rounded(.down).clamped(-1e15, 1e15)) : 0) + Int64(offset)
    }

    /// `at`, read on the clock of `zone`.
    public init(_ at: Date, in zone: LocalZone) {
        self.init(at, offsetSeconds: zone.secondsEastOfUTC(at: at))
    }

    /// The local day.
    public var day: Int { Int(wallSeconds.floorDivided(by: 86_400)) }
    /// The clock's offset from UTC, in seconds.
    public var offsetSeconds: Int {
        let seconds = at.timeIntervalSince1970
        return Int(wallSeconds - (seconds.isFinite ? Int64(seconds.rounded(.down).clamped(-1e15, 1e15)) : 0))
    }

    /// The minute of the local day (0–1439).
    public var minuteOfDay: Int { Int(wallSeconds - Int64(day) * 86_400) / 60 }
}

/// Activity samples as an export streams them, gathered per metric, local day and source, and made into
/// one total a day each (DESIGN "Imported activity is a day's total"):
/// - a *daily amount* (steps, water, …) is the sum of a source's samples of the day;
/// - a *night* is the union of a source's asleep intervals (the in-bed span and awake stretches are not
///   given here) less than three hours apart, on the local day its last one ends;
/// - a *reading* (resting heart rate) is a source's latest of the day.
///
/// Two sources of one day are never added: ``totals()`` keeps the source with the most (the largest
/// amount, the longest night; for a reading, the latest). Memory grows with days × sources, not with
/// samples: a minute-level export of ten years holds about 3,650 days a metric.
public struct ActivityDays: Sendable, Equatable {
    /// Where a sample came from: an app's device or stream (`Apple Watch`, `merge_step_deltas`).
    public typealias Source = UInt16

    struct Key: Hashable, Sendable {
        var metric: UInt8
        var day: Int32
        var source: Source
    }

    struct Tally: Sendable, Equatable {
        var value: Double
        var samples: Int
        var latest: Date
        /// The offset from UTC, in seconds, of the latest sample's clock.
        var offset: Int32
    }

    /// An asleep interval, in seconds since 1970, with the local day it ends on.
    struct Asleep: Sendable, Equatable {
        var start: Double
        var end: Double
        var endDay: Int32
    }

    /// The names of the sources, by ``Source``.
    public private(set) var sourceNames: [String] = []
    /// The app each source's entries are kept as coming from, by ``Source``.
    private var sourceApps: [ProgressEntry.Source] = []
    private var sourceIndex: [String: Source] = [:]
    private var tallies: [Key: Tally] = [:]
    /// The asleep stretches of each source, made into nights when the totals are.
    private var asleep: [Source: [Asleep]] = [:]

    public init() {}

    /// Whether no sample was added.
    public var isEmpty: Bool { tallies.isEmpty && asleep.isEmpty }

    /// The source named `name` (an app, a slash and its device or stream: `apple-health/Apple Watch`)
    /// of `app`'s export. At most 65,535: a file naming more is read as if the rest were the last.
    public mutating func source(_ name: String, app: ProgressEntry.Source) -> Source {
        if let index = sourceIndex[name] { return index }
        guard sourceNames.count < Int(Source.max) else { return Source.max - 1 }
        let index = Source(sourceNames.count)
        sourceNames.append(name)
        sourceApps.append(app)
        sourceIndex[name] = index
        return index
    }

    /// A metric as a sample is added to it: its place in ``Metric/all`` and its kind, worked out once
    /// for a reader that adds millions of samples.
    public struct Slot: Sendable, Equatable {
        let index: UInt8
        let kind: Metric.Kind

        public init(_ metric: Metric) {
            index = UInt8(Metric.all.firstIndex(of: metric) ?? 0)
            kind = metric.kind
        }
    }

    /// Adds a sample of `metric` taken at `at` (its start): an amount to its local day's sum, a reading
    /// as its day's latest, a night's stated time asleep (hours) to the night ending on that day.
    public mutating func add(_ metric: Metric, _ value: Double, at: LocalInstant, source: Source) {
        add(Slot(metric), value, at: at, source: source)
    }

    /// Adds a sample of the metric of `slot` (``add(_:_:at:source:)``).
    public mutating func add(_ slot: Slot, _ value: Double, at: LocalInstant, source: Source) {
        guard value.isFinite else { return }
        let key = Key(metric: slot.index, day: Int32(clamping: at.day), source: source)
        let offset = Int32(clamping: at.offsetSeconds)
        guard var tally = tallies[key] else {
            tallies[key] = Tally(value: value, samples: 1, latest: at.at, offset: offset)
            return
        }
        tally.samples += 1
        switch slot.kind {
        case .dailyAmount, .night:
            tally.value += value
            if at.at > tally.latest {
                tally.latest = at.at
                tally.offset = offset
            }
        case .reading:
            if at.at >= tally.latest {
                tally.value = value
                tally.latest = at.at
                tally.offset = offset
            }
        }
        tallies[key] = tally
    }

    /// Adds an interval asleep from `start` to `end` (a stage of a night: light, deep, REM, or asleep
    /// unspecified) of `source`. An interval that ends before it starts is not added.
    public mutating func addAsleep(from start: Date, to end: LocalInstant, source: Source) {
        let startSeconds = start.timeIntervalSince1970
        let endSeconds = end.at.timeIntervalSince1970
        guard startSeconds.isFinite, endSeconds.isFinite, endSeconds > startSeconds else { return }
        asleep[source, default: []].append(
            Asleep(start: startSeconds, end: endSeconds, endDay: Int32(clamping: end.day)))
    }

    private static let sleepSlot = Slot(.sleep)

    /// Stretches asleep less than this apart (3 hours, in seconds) are one night: a night woken in is
    /// still one night, a nap in the afternoon is not the night before.
    static let sameNight = 3.0 * 3_600

    /// Each source's nights: its stretches asleep made into nights (``sameNight``), a night's hours the
    /// union of its stretches, on the local day its last stretch ends; two nights ending on one day
    /// (a nap and the night) add up, as entries of a night do.
    private func nightsByDay() -> [Key: (hours: Double, end: Double)] {
        var days: [Key: (hours: Double, end: Double)] = [:]
        for (source, stretches) in asleep {
            var night: (covered: Double, open: (start: Double, end: Double), lastEnd: Double, day: Int32)?
            func close() {
                guard let done = night else { return }
                let key = Key(metric: Self.sleepSlot.index, day: done.day, source: source)
                let hours = (done.covered + done.open.end - done.open.start) / 3_600
                let kept = days[key] ?? (0, done.lastEnd)
                days[key] = (kept.hours + hours, max(kept.end, done.lastEnd))
            }
            for stretch in stretches.sorted(by: { $0.start < $1.start }) {
                guard var current = night, stretch.start - current.lastEnd < Self.sameNight else {
                    close()
                    night = (0, (stretch.start, stretch.end), stretch.end, stretch.endDay)
                    continue
                }
                if stretch.start <= current.open.end {
                    current.open.end = max(current.open.end, stretch.end)
                } else {
                    current.covered += current.open.end - current.open.start
                    current.open = (stretch.start, stretch.end)
                }
                if stretch.end > current.lastEnd {
                    current.lastEnd = stretch.end
                    current.day = stretch.endDay
                }
                night = current
            }
            close()
        }
        return days
    }

    /// Adds every sample of `other` (another file of the same import).
    public mutating func merge(_ other: ActivityDays) {
        let mapped = zip(other.sourceNames, other.sourceApps).map { source($0, app: $1) }
        for (key, tally) in other.tallies {
            var moved = key
            moved.source = mapped[Int(key.source)]
            guard var kept = tallies[moved] else {
                tallies[moved] = tally
                continue
            }
            switch Metric.all[Int(key.metric)].kind {
            case .dailyAmount, .night:
                kept.value += tally.value
                if tally.latest > kept.latest {
                    kept.latest = tally.latest
                    kept.offset = tally.offset
                }
            case .reading:
                if tally.latest >= kept.latest {
                    kept.value = tally.value
                    kept.latest = tally.latest
                    kept.offset = tally.offset
                }
            }
            kept.samples += tally.samples
            tallies[moved] = kept
        }
        for (source, stretches) in other.asleep {
            asleep[mapped[Int(source)], default: []].append(contentsOf: stretches)
        }
    }

    /// One total a metric a day: of several sources, the one with the most (the latest, for a reading).
    /// Sorted by metric (in ``Metric/all``'s order), then day.
    public func totals() -> [DayTotal] {
        var candidates: [Key: DayTotal] = [:]
        func offer(_ key: Key, _ total: DayTotal) {
            var place = key
            place.source = 0
            guard let kept = candidates[place] else {
                candidates[place] = total
                return
            }
            var chosen = total.isPreferred(over: kept) ? total : kept
            chosen.sources = kept.sources + 1
            candidates[place] = chosen
        }
        var nights = nightsByDay()
        for (key, tally) in tallies {
            let metric = Metric.all[Int(key.metric)]
            let night = metric == .sleep ? nights.removeValue(forKey: key) : nil
            let value = tally.value + (night?.hours ?? 0)
            let loggedAt: Date
            switch metric.kind {
            case .dailyAmount:
                // Noon of the day on the file's clock: the same day wherever within 11 hours it is read.
                let noon = Int64(key.day) * 86_400 + 12 * 3_600 - Int64(tally.offset)
                loggedAt = Date(timeIntervalSince1970: TimeInterval(noon))
            case .night:
                loggedAt = max(tally.latest, night.map { Date(timeIntervalSince1970: $0.end) } ?? .distantPast)
            case .reading:
                loggedAt = tally.latest
            }
            offer(
                key,
                DayTotal(
                    metric: metric, day: CalendarDate(daysSince1970: Int(key.day)), value: value, loggedAt: loggedAt,
                    source: sourceNames[Int(key.source)], app: sourceApps[Int(key.source)]))
        }
        for (key, night) in nights {
            offer(
                key,
                DayTotal(
                    metric: .sleep, day: CalendarDate(daysSince1970: Int(key.day)), value: night.hours,
                    loggedAt: Date(timeIntervalSince1970: night.end), source: sourceNames[Int(key.source)],
                    app: sourceApps[Int(key.source)]))
        }
        return candidates.sorted { ($0.key.metric, $0.key.day) < ($1.key.metric, $1.key.day) }.map(\.value)
    }
}

/// One metric's total of one local day, from one source of an export.
public struct DayTotal: Sendable, Equatable {
    public var metric: Metric
    public var day: CalendarDate
    /// In the metric's unit; not yet rounded or checked against the metric's rule.
    public var value: Double
    /// The entry's time: noon of the day on the clock of its file, for an amount; when a night ended;
    /// a reading's own.
    public var loggedAt: Date
    /// The source whose day it is.
    public var source: String
    /// The app the entry is kept as coming from.
    public var app: ProgressEntry.Source
    /// How many sources had this day (their values are not added).
    public var sources = 1

    public init(
        metric: Metric, day: CalendarDate, value: Double, loggedAt: Date, source: String, app: ProgressEntry.Source
    ) {
        self.metric = metric
        self.day = day
        self.value = value
        self.loggedAt = loggedAt
        self.source = source
        self.app = app
    }

    /// Whether this source's day stands rather than `other`'s: the larger amount or night, the later
    /// reading; of equal ones, the source named first.
    func isPreferred(over other: DayTotal) -> Bool {
        switch metric.kind {
        case .dailyAmount, .night:
            value != other.value ? value > other.value : source < other.source
        case .reading:
            loggedAt != other.loggedAt ? loggedAt > other.loggedAt : source < other.source
        }
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(Swift.max(self, low), high)
    }
}
