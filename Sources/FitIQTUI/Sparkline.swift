/// A row of one character a day, its height the day's value: `▁▃▅█ ▂`, a blank for a day without
/// entries. The lowest bar is the smallest value shown above zero, so a day's amount of 0 still shows.
public enum Sparkline {
    /// The sparkline of `values` (oldest first) drawn with `graphics`' symbols: eighth blocks, or
    /// ASCII (`_.-=*#`).
    public static func text(_ values: [Double?], graphics: ChartGraphics) -> String {
        let marks: [Character] =
            graphics == .ascii ? ["_", ".", "-", "=", "*", "#"] : ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let known = values.compactMap { $0 }.filter(\.isFinite)
        guard let top = known.max(), let bottom = known.min() else {
            return String(repeating: " ", count: values.count)
        }
        // Amounts start at zero; readings (a weight) from their lowest, or every day would look full.
        let floor = bottom >= 0 && bottom <= top / 2 ? 0 : bottom
        let span = top - floor
        return String(
            values.map { value -> Character in
                guard let value, value.isFinite else { return " " }
                guard span > 0 else { return marks[marks.count / 2] }
                let level = Int(((value - floor) / span * Double(marks.count - 1)).rounded())
                return marks[min(marks.count - 1, max(0, level))]
            })
    }
}
