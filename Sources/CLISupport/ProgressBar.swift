import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error: rows (or another ``unit``) done of total, rate
/// and time left, redrawn in place (`\r`) and cleared at the end.
///
/// ```
/// import  [########............]  41,000/100,000 rows  20,500/s  0:03 left
/// ```
///
/// Redraws at most every ``minimumInterval`` seconds of its clock (and always for the last
/// row), so a tight loop can call ``update(_:of:)`` per row. Commands make one with
/// ``onTerminal(label:quiet:)``, which gives `nil` unless standard error is a terminal and
/// `--quiet` is off; tests make one with a fake width, clock and writer.
///
/// Confinement: one thread at a time (a command's own), like the command that owns it.
package final class ProgressBar {
    /// What the bar is counting (`import`, `compact`), shown first.
    package let label: String
    /// The terminal's width in columns; the line never exceeds it.
    package let width: Int
    /// What is counted, plural (`rows`, `objects`), shown after the counts. Default `rows`.
    package var unit = "rows"
    /// The least time between redraws, in seconds. Default 0.1.
    package var minimumInterval: TimeInterval = 0.1
    private let clock: () -> TimeInterval
    private let write: (String) -> Void
    private let start: TimeInterval
    private var lastDraw: TimeInterval?
    private var drawn = false

    /// A bar drawing with `write` (each call is one redraw, starting with `\r`).
    ///
    /// - Parameters:
    ///   - width: the terminal's columns.
    ///   - clock: seconds on any monotonic scale; read at creation and at each update.
    package init(
        label: String, width: Int, clock: @escaping () -> TimeInterval,
        write: @escaping (String) -> Void
    ) {
        self.label = label
        self.width = width
        self.clock = clock
        self.write = write
        self.start = clock()
    }

    /// A bar on this process's standard error, or `nil` when standard error is not a
    /// terminal or `quiet` is set.
    package static func onTerminal(label: String, quiet: Bool, unit: String = "rows")
        -> ProgressBar?
    {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        let bar = ProgressBar(
            label: label, width: terminalWidth(),
            clock: { ProcessInfo.processInfo.systemUptime },
            write: { FileHandle.standardError.write(Data($0.utf8)) })
        bar.unit = unit
        return bar
    }

    /// Records that `done` of `total` rows are done, redrawing when ``minimumInterval`` has
    /// passed since the last redraw or `done` reached `total`.
    package func update(_ done: Int, of total: Int) {
        let now = clock()
        if let lastDraw, now - lastDraw < minimumInterval, done < total { return }
        lastDraw = now
        drawn = true
        write(
            "\r"
                + Self.render(
                    label: label, done: done, total: total, elapsed: now - start, width: width,
                    unit: unit)
                + "\u{1B}[K")
    }

    /// Replaces the bar with `text` after the label (`import  saving 100000 transactions`),
    /// for a step whose progress cannot be counted; drawn at once.
    package func status(_ text: String) {
        lastDraw = clock()
        drawn = true
        write("\r" + String((label + "  " + text).prefix(max(0, width - 1))) + "\u{1B}[K")
    }

    /// Clears the line (when anything was drawn), leaving the cursor at its start.
    package func finish() {
        guard drawn else { return }
        drawn = false
        write("\r\u{1B}[K")
    }

    /// The bar's text for `done` of `total` after `elapsed` seconds, at most `width` columns:
    /// the label, a bar (when it fits), the counts in `unit`, the rate and the time left.
    package static func render(
        label: String, done: Int, total: Int, elapsed: TimeInterval, width: Int,
        unit: String = "rows"
    ) -> String {
        let total = max(total, 0)
        let done = min(max(done, 0), total)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var details = "\(grouped(done))/\(grouped(total)) \(unit)"
        if rate > 0 {
            details += "  \(grouped(Int(rate.rounded())))/s"
            details += "  \(clock(Double(total - done) / rate)) left"
        }
        let fixed = label.count + details.count + 6  // "label  [" + "]  " + details
        let barWidth = min(40, width - 1 - fixed)
        guard barWidth >= 5 else {
            return String((label + "  " + details).prefix(max(0, width - 1)))
        }
        let filled = total == 0 ? barWidth : barWidth * done / total
        let bar =
            String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        return "\(label)  [\(bar)]  \(details)"
    }

    /// A closure reporting `done` of `total` to this bar, callable from the engine's
    /// `@Sendable` progress parameters (``update(_:of:)`` runs on the caller's thread, which
    /// is the command's own: the engine reports synchronously, before it returns).
    package var sendableUpdate: @Sendable (_ done: Int, _ total: Int) -> Void {
        let box = UncheckedBar(bar: self)
        return { done, total in box.bar.update(done, of: total) }
    }

    /// `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// `0:07`, `12:30`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        let mm = h > 0 && m < 10 ? "0\(m)" : "\(m)"
        return (h > 0 ? "\(h):" : "") + mm + ":" + (r < 10 ? "0\(r)" : "\(r)")
    }

    /// The terminal's columns: `TIOCGWINSZ` on standard error, else `$COLUMNS`, else 80.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }
}

/// A bar handed to a `@Sendable` progress closure that the engine calls synchronously on the
/// command's thread (see ``ProgressBar/sendableUpdate``).
private struct UncheckedBar: @unchecked Sendable {
    let bar: ProgressBar
}
