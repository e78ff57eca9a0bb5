import Foundation
import Testing

@testable import LedgerKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `ledger report --chart`: the SVG parsed as XML, its bars measured against the report.
@Suite struct SpendingChartTests {
    static func ledger(_ sandbox: LedgerSandbox) throws -> Ledger {
        let ledger = try sandbox.ramLedger()
        _ = try ledger.addCategory(name: "Groceries", colorHex: "#4CAF50")
        _ = try ledger.addCategory(name: "Snacks & <Treats>")  // default #FFFFFF
        _ = try ledger.addCategory(name: "Sun", colorHex: "#FFF59D")  // too light
        for (date, amount, category, kind) in [
            ("2026-09-03", "120.00", "Groceries", TransactionKind.expense),
            ("2026-09-04", "14.35", "Snacks & <Treats>", .expense),
            ("2026-09-25", "900.00", nil, .income),
            ("2026-10-03", "310.40", "Groceries", .expense),
            ("2026-10-09", "22.00", "Sun", .expense),
            ("2026-10-10", "5.00", nil, .expense),
            ("2026-11-25", "950.00", nil, .income),
        ] as [(String, String, String?, TransactionKind)] {
            _ = try ledger.addTransaction(
                TransactionDraft(
                    amount: dec(amount), kind: kind, category: category, date: day(date)))
        }
        return ledger
    }

    /// The elements of `svg` by name, with their attributes.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            elements.append((name, attributes))
        }
    }

    static func parse(_ text: String) throws -> [(name: String, attributes: [String: String])] {
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return collector.elements
    }

    @Test func barHeightsMatchTheReportAndIncomeIsALine() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let ledger = try Self.ledger(sandbox)
        let chart = try ledger.chart(title: "Spending by month")
        let report = try ledger.report(by: .month)
        let elements = try Self.parse(chart.svg())
        let root = try #require(elements.first)
        #expect(root.name == "svg")
        let axis = try #require(root.attributes["data-axis-maximum"].flatMap { Double($0) })
        let plotHeight = try #require(root.attributes["data-plot-height"].flatMap { Double($0) })
        #expect(axis == 1000)  // 950 of income, in steps of 200
        let bars = elements.filter { $0.attributes["class"] == "bar" }
        var outByMonth: [String: Decimal] = [:]
        for bar in bars {
            let amount = try #require(bar.attributes["data-amount"].flatMap { Decimal(string: $0) })
            let height = try #require(bar.attributes["height"].flatMap { Double($0) })
            let expected = NSDecimalNumber(decimal: amount).doubleValue / axis * plotHeight
            #expect(abs(height - expected) <= 0.01, "\(bar.attributes)")
            outByMonth[bar.attributes["data-month"] ?? "", default: 0] += amount
        }
        for group in report.groups where group.out > 0 {
            #expect(outByMonth[group.name] == group.out, "\(group.name)")
        }
        #expect(bars.count == 5)
        // Bars of a month stack: each starts where the one below ends.
        let october = bars.filter { $0.attributes["data-month"] == "2026-10" }
        let bottoms = october.map {
            Double($0.attributes["y"]!)! + Double($0.attributes["height"]!)!
        }
        let tops = october.map { Double($0.attributes["y"]!)! }
        #expect(abs(bottoms[0] - (SpendingChart.plot.top + plotHeight)) < 0.01)
        for i in 1..<october.count { #expect(abs(bottoms[i] - tops[i - 1]) < 0.01) }
        // Income: one point per month, at its height; a month without income sits on the axis.
        let points = elements.filter { $0.name == "circle" && $0.attributes["class"] == "income" }
        #expect(points.map { $0.attributes["data-amount"] } == ["900.00", "0.00", "950.00"])
        let y = points.map { Double($0.attributes["cy"]!)! }
        #expect(abs((SpendingChart.plot.top + plotHeight - y[0]) - 900 / axis * plotHeight) < 0.01)
        #expect(elements.contains { $0.name == "polyline" && $0.attributes["class"] == "income" })
    }

    @Test func ownColoursStayAndWhiteOrTooLightOnesTakeThePalette() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let chart = try Self.ledger(sandbox).chart(title: "t")
        let colours = Dictionary(uniqueKeysWithValues: chart.series.map { ($0.name, $0.color) })
        #expect(colours["Groceries"] == "#4CAF50")
        #expect(colours["(none)"] == ChartColors.uncategorised)
        for name in ["Snacks & <Treats>", "Sun"] {
            let colour = try #require(colours[name])
            #expect(ChartColors.palette.contains(colour))
            #expect(try #require(ChartColors.luminance(colour)) <= ChartColors.lightest)
        }
        #expect(Set(colours.values).count == colours.count)
        #expect(ChartColors.luminance("#FFFFFF") == 1)
        #expect(ChartColors.assign(["A"], own: ["A": "#FFEB3B"]) == ["#1F77B4"])
    }

    @Test func theSVGIsSelfContainedAndEscapesNames() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let chart = try Self.ledger(sandbox).chart(title: "Spending <by> month")
        for text in [chart.svg(), chart.html()] {
            #expect(!text.contains("<script"))
            #expect(!text.contains("href"))
            #expect(!text.contains("url("))
            #expect(!text.contains("@font-face"))
            #expect(text.contains("Snacks &amp; &lt;Treats&gt;"))
            #expect(!text.contains("<Treats>"))
        }
        let elements = try Self.parse(chart.svg())
        #expect(
            elements.contains { $0.attributes["data-category"] == "Snacks & <Treats>" })
        let html = chart.html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<td>2026-10</td>"))
        #expect(html.contains("<td class=\"amount\">310.40</td>"))
    }

    @Test func anEmptyLedgerDrawsAnEmptyChart() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let chart = try sandbox.ramLedger().chart(title: "t")
        #expect(chart.months.isEmpty)
        #expect(chart.axisMaximum == 100)
        let elements = try Self.parse(chart.svg())
        #expect(!elements.contains { $0.attributes["class"] == "bar" })
    }

    @Test func aLongLegendSaysHowManyMoreAndStaysInsideTheDrawing() throws {
        var spending = MonthlySpending()
        for i in 1...20 {
            spending.add(
                month: "2026-11", category: "Category \(i)", income: false, amount: Decimal(i))
        }
        let chart = SpendingChart(title: "t", spending: spending, colors: [:])
        let elements = try Self.parse(chart.svg())
        #expect(elements.filter { $0.attributes["class"] == "bar" }.count == 20)
        #expect(chart.svg().contains("+ 3 more</text>"))
        let bottom = elements.compactMap { $0.attributes["y"].flatMap { Double($0) } }.max() ?? 0
        #expect(bottom <= SpendingChart.height)
        // Twenty categories, ten palette colours: all drawn, none white.
        #expect(chart.series.allSatisfy { ChartColors.palette.contains($0.color) })
    }
}
