import CLISupport
import Foundation
import Testing

/// Text tables: aligned, capped per cell, linear in the size of what they show.
///
/// The limit guards against the quadratic padding a 100,000-character payee once hit (past
/// 60 s). It is three minutes, not one: in a clean-clone `.ci/run` on 2 cores (2026-12-06) two of
/// these millisecond tests started, waited for a thread while `ConcurrencyStressTests` held the
/// test run's, and ended with the whole run at 109.5 s, over a one-minute limit.
@Suite(.timeLimit(.minutes(3)))
struct TableTests {
    @Test func aCellWiderThanTheCapIsCutWithAnEllipsis() {
        let out = CLIOutput.capturing()
        let long = String(repeating: "x", count: CLIOutput.maximumCellWidth + 5)
        out.table([["name", "n"], [long, "1"], ["short", "22"]], rightAligned: [1])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        let cut = String(repeating: "x", count: CLIOutput.maximumCellWidth - 1) + "…"
        #expect(lines[1] == cut + "   1")
        #expect(lines[2].hasPrefix("short ") && lines[2].hasSuffix("  22"))
        #expect(lines.allSatisfy { $0.count == CLIOutput.maximumCellWidth + 4 })
    }

    /// A 100,000-character payee made `ledger list` run past 60 s: padding every other row
    /// to its width, then trimming trailing spaces with a regular expression, was quadratic.
    @Test func aHugeCellIsShownCappedAndFast() {
        let out = CLIOutput.capturing()
        let huge = String(repeating: "P", count: 100_000)
        var rows = [["id", "payee", "note"], ["a", huge, "n"]]
        for i in 0..<200 { rows.append(["b\(i)", "Short", "n"]) }
        out.table(rows)
        let lines = out.stdout.split(separator: "\n")
        #expect(lines.count == 202)
        // id (4) + payee (capped) + note (4), two spaces apart.
        #expect(lines.allSatisfy { $0.count <= 4 + 2 + CLIOutput.maximumCellWidth + 2 + 4 })
        #expect(
            lines[1].contains(String(repeating: "P", count: CLIOutput.maximumCellWidth - 1) + "…"))
        #expect(lines.allSatisfy { $0.last != " " })
    }

    @Test func lineBreaksAndTabsInACellDoNotBreakTheTable() {
        let out = CLIOutput.capturing()
        out.table([["payee", "n"], ["two\nlines\tand tab", "1"]])
        let gap = String(repeating: " ", count: "two lines and tab".count - "payee".count + 2)
        #expect(out.stdout == "payee" + gap + "n\ntwo lines and tab  1\n")
    }

    @Test func wideCharactersAndTrailingEmptyCellsAlign() {
        let out = CLIOutput.capturing()
        out.table([["name", "note", "x"], ["Café", "", ""], ["Zürich", "ok", ""]])
        #expect(out.stdout == "name    note  x\nCafé\nZürich  ok\n")
    }
}
