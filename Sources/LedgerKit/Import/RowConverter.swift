import Foundation
import ObjectGraph

/// Turns one data record into an ``ImportedRow`` by an ``ImportPlan``, or says why not.
struct RowConverter {
    let plan: ImportPlan
    let parser: AmountParser
    var keys: ImportKeyMaker
    /// The row's identity bytes (see ``ImportKeyMaker``), reused from row to row.
    private var identity: [UInt8] = []

    init(plan: ImportPlan, parser: AmountParser, expectedRows: Int) {
        self.plan = plan
        self.parser = parser
        self.keys = ImportKeyMaker(expectedRows: expectedRows)
        identity.reserveCapacity(256)
    }

    /// The row of record `record`; `p` is `table.bytes`.
    mutating func convert(
        _ record: Int, _ table: CSVTable, _ p: UnsafeBufferPointer<UInt8>
    ) throws(LedgerError) -> ImportedRow {
        let line = table.recordLines[record]
        let file = plan.file
        let fields = table.fieldCount(record)
        guard
            plan.fits(record, table, blank: { Text.isBlank(UnsafeBufferPointer(rebasing: p[$0])) })
        else {
            throw ImportError.row(
                file, line: line,
                .fieldCount(found: fields, expected: plan.width, like: plan.widthLine))
        }
        func cell(_ column: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: p[table.range(record, column)])
        }
        func failure(_ key: String, _ column: Int, _ problem: ImportProblem) -> LedgerError {
            ImportError.cell(
                file, line: line, key: key, text: Text.trimmed(cell(column)),
                column: plan.label(column), problem)
        }
        let date: CivilDate
        do {
            date = try plan.dateFormat.parse(cell(plan.dateColumn))
        } catch {
            throw failure("date", plan.dateColumn, error)
        }
        func amount(_ column: Int) throws(LedgerError) -> Amount {
            do {
                return try parser.parse(cell(column))
            } catch {
                throw failure("amount", column, error)
            }
        }
        let value: Amount
        let out: Bool
        let amountColumn: Int
        switch plan.amount {
        case .signed(let column):
            (value, out, amountColumn) = (try amount(column), false, column)
        case .typed(let column, let typeColumn, let debitWord):
            let word = Text.trimmed(cell(typeColumn)).lowercased()
            guard !word.isEmpty else { throw failure("type", typeColumn, .typeEmpty) }
            (value, out, amountColumn) = (try amount(column), word == debitWord, column)
        case .debitCredit(let debitColumn, let creditColumn):
            let debit = Text.isBlank(cell(debitColumn)) ? nil : try amount(debitColumn)
            let credit = Text.isBlank(cell(creditColumn)) ? nil : try amount(creditColumn)
            switch (
                debit.flatMap { $0.mantissa == 0 ? nil : $0 },
                credit.flatMap { $0.mantissa == 0 ? nil : $0 }
            ) {
            case (_?, _?): throw ImportError.row(file, line: line, .debitAndCredit)
            case (let d?, nil): (value, out, amountColumn) = (d, true, debitColumn)
            case (nil, let c?): (value, out, amountColumn) = (c, false, creditColumn)
            case (nil, nil): throw ImportError.row(file, line: line, .neitherDebitNorCredit)
            }
        }
        guard !value.isBelowMinimum else {
            throw failure("amount", amountColumn, .amountBelowMinimum(value.magnitudeText))
        }
        let isExpense: Bool
        if case .signed = plan.amount { isExpense = value.negative } else { isExpense = out }
        identity.removeAll(keepingCapacity: true)
        date.appendISO(to: &identity)
        identity.append(0x1F)
        if isExpense { identity.append(UInt8(ascii: "-")) }
        value.appendMagnitude(to: &identity)
        var payee: String?
        var note: String?
        for column in plan.descriptionColumns {
            identity.append(0x1F)
            let start = identity.count
            Text.appendNormalized(cell(column), to: &identity)
            guard identity.count > start else { continue }
            let text = String(decoding: identity[start...], as: UTF8.self)
            if payee == nil { payee = text } else { note = note.map { $0 + " · " + text } ?? text }
        }
        let key = keys.key(identity: &identity)
        var category: String?
        if let column = plan.categoryColumn {
            var bytes: [UInt8] = []
            Text.appendNormalized(cell(column), to: &bytes)
            if !bytes.isEmpty { category = String(decoding: bytes, as: UTF8.self) }
        }
        return ImportedRow(
            line: line, date: date.date, amount: value.magnitude,
            kind: isExpense ? .expense : .income,
            payee: payee, note: note, importKey: key, category: category)
    }
}
