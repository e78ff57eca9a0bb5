import Foundation
import ObjectGraphTesting

/// The ledger benchmark's bank export: `Date,Amount,Payee,Memo`, written deterministically.
///
/// The shape of docs/ledger.md's Python generator, from a seeded SplitMix64 generator instead of
/// Python's `random`: row `i` of `n` falls in year `2015 + i * 10 / n` (ten years), on a
/// random month 1–12 and day 1–28; the amount is 0.01–2000.00, money in for 10% of the rows
/// (positive) and out for the rest (negative); the payee is one of ten; the memo is `ref i`.
enum LedgerCSV {
    static let payees = [
        "Market Hall", "Corner Shop", "City Metro", "Noodle Bar", "Landlord", "Pizzeria",
        "Rail Pass", "Bookshop", "Pharmacy", "Cinema",
    ]

    /// The file's bytes for `rows` rows (plus the header line).
    static func make(rows: Int, seed: UInt64 = 42) -> Data {
        var random = SeededRandomNumberGenerator(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(rows * 48 + 32)
        out += Array("Date,Amount,Payee,Memo\n".utf8)
        for i in 0..<rows {
            let cents = Int(random.next() % 200_000) + 1
            let year = 2015 + i * 10 / max(rows, 1)
            let month = Int(random.next() % 12) + 1
            let day = Int(random.next() % 28) + 1
            let income = random.next() % 10 == 0
            let payee = payees[Int(random.next() % UInt64(payees.count))]
            append(year, 4, &out)
            out.append(UInt8(ascii: "-"))
            append(month, 2, &out)
            out.append(UInt8(ascii: "-"))
            append(day, 2, &out)
            out.append(UInt8(ascii: ","))
            if !income { out.append(UInt8(ascii: "-")) }
            append(cents / 100, 1, &out)
            out.append(UInt8(ascii: "."))
            append(cents % 100, 2, &out)
            out.append(UInt8(ascii: ","))
            out += Array(payee.utf8)
            out += Array(",ref ".utf8)
            append(i, 1, &out)
            out.append(UInt8(ascii: "\n"))
        }
        return Data(out)
    }

    /// Appends `n`'s decimal digits, zero-padded to `width`.
    private static func append(_ n: Int, _ width: Int, _ out: inout [UInt8]) {
        let digits = Array(String(n).utf8)
        if digits.count < width {
            out += Array(repeating: UInt8(ascii: "0"), count: width - digits.count)
        }
        out += digits
    }
}
