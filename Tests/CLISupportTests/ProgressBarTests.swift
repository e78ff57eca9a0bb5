import Foundation
import Testing

@testable import CLISupport

/// The progress bar's rendering and redraws, with a fake terminal width and clock.
@Suite struct ProgressBarTests {
    /// A bar whose clock the test moves and whose writes it collects.
    private final class Terminal {
        var now: TimeInterval = 100
        var writes: [String] = []
        func bar(width: Int) -> ProgressBar {
            ProgressBar(
                label: "import", width: width, clock: { self.now },
                write: { self.writes.append($0) })
        }
    }

    @Test func aLineShowsTheBarTheCountsTheRateAndTheTimeLeft() {
        let line = ProgressBar.render(
            label: "import", done: 41_000, total: 100_000, elapsed: 2, width: 80)
        // 27 columns of bar fill the 79 a line may take; 41% of them is 11.
        #expect(
            line
                == "import  [###########................]  41,000/100,000 rows  20,500/s  0:03 left"
        )
        #expect(line.count == 79)
    }

    @Test func aNarrowTerminalDropsTheBarAndNeverWraps() {
        for width in [20, 40, 60] {
            let line = ProgressBar.render(
                label: "compact", done: 5, total: 1_000_000, elapsed: 1, width: width)
            #expect(line.count <= width - 1, "\(width): \(line)")
        }
        #expect(
            !ProgressBar.render(label: "x", done: 1, total: 9, elapsed: 1, width: 30).contains("["))
    }

    @Test func theBarIsFullAtTheEndAndEmptyWorkIsDone() {
        #expect(
            ProgressBar.render(label: "verify", done: 10, total: 10, elapsed: 0, width: 100)
                .hasPrefix("verify  [" + String(repeating: "#", count: 40) + "]  10/10 rows"))
        #expect(
            ProgressBar.render(label: "verify", done: 0, total: 0, elapsed: 0, width: 100)
                .contains("0/0 rows"))
    }

    @Test func redrawsInPlaceAtMostEveryTenthOfASecondAndClearsAtTheEnd() {
        let terminal = Terminal()
        let bar = terminal.bar(width: 80)
        bar.update(1, of: 4)
        terminal.now += 0.05
        bar.update(2, of: 4)  // too soon: skipped
        terminal.now += 0.1
        bar.update(3, of: 4)
        bar.update(4, of: 4)  // the last row always draws
        bar.finish()
        #expect(terminal.writes.count == 4)
        #expect(
            terminal.writes.dropLast().allSatisfy { $0.hasPrefix("\r") && $0.hasSuffix("\u{1B}[K") }
        )
        #expect(terminal.writes[0].contains("1/4 rows") && terminal.writes[1].contains("3/4 rows"))
        #expect(
            terminal.writes[2].contains("4/4 rows  ") && terminal.writes[2].contains("0:00 left"))
        #expect(terminal.writes[3] == "\r\u{1B}[K")
    }

    @Test func aStatusReplacesTheBarWithinTheWidthAndIsClearedToo() {
        let terminal = Terminal()
        let bar = terminal.bar(width: 30)
        bar.update(10, of: 10)
        bar.status("saving 100,000 transactions now")
        bar.finish()
        #expect(terminal.writes[1] == "\rimport  saving 100,000 transa\u{1B}[K")
        #expect(terminal.writes.last == "\r\u{1B}[K")
    }

    @Test func aBarThatNeverDrewClearsNothing() {
        let terminal = Terminal()
        terminal.bar(width: 80).finish()
        #expect(terminal.writes.isEmpty)
    }

    @Test func timesAndCountsReadNaturally() {
        #expect(ProgressBar.clock(7) == "0:07")
        #expect(ProgressBar.clock(750) == "12:30")
        #expect(ProgressBar.clock(3723) == "1:02:03")
        #expect(ProgressBar.grouped(1_234_567) == "1,234,567")
        #expect(ProgressBar.grouped(999) == "999")
    }

    @Test func noBarWhenQuietOrWhenStandardErrorIsNotATerminal() {
        #expect(ProgressBar.onTerminal(label: "x", quiet: true) == nil)
        if isatty(STDERR_FILENO) == 0 {
            #expect(ProgressBar.onTerminal(label: "x", quiet: false) == nil)
        }
    }

    @Test func aBarCountsItsOwnUnit() {
        #expect(
            ProgressBar.render(
                label: "seed", done: 500, total: 2_000, elapsed: 1, width: 100, unit: "objects"
            ).contains("500/2,000 objects  500/s  0:03 left"))
        let terminal = Terminal()
        let bar = terminal.bar(width: 80)
        bar.unit = "objects"
        bar.update(1, of: 2)
        #expect(terminal.writes[0].contains("1/2 objects"))
    }

    @Test func anOutputGivesABarOnlyWhenNotQuietAndOnATerminalOrATestsFake() {
        let terminal = Terminal()
        let faked = CLIOutput.capturing { _ in terminal.bar(width: 80) }
        #expect(faked.progressBar("seed", quiet: true) == nil)
        let bar = faked.progressBar("seed", quiet: false, unit: "objects")
        #expect(bar?.unit == "objects")
        #expect(CLIOutput.capturing().progressBar("seed", quiet: false) == nil)
        if isatty(STDERR_FILENO) == 0 {
            #expect(CLIOutput.standard.progressBar("seed", quiet: false) == nil)
        }
        // The engine's `@Sendable` progress parameters reach the bar.
        bar?.sendableUpdate(3, 4)
        #expect(terminal.writes.last?.contains("3/4 objects") == true)
    }
}
