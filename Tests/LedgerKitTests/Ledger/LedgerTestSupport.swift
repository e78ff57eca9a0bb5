import Foundation
import ObjectGraph
import ObjectGraphTesting

@testable import LedgerKit

/// Builds ledgers for tests: seeded IDs, a fixed "today", and a private temporary directory.
struct LedgerSandbox {
    /// A fresh directory under the system's temporary directory.
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// 2026-11-30 12:00 UTC.
    static let today = Date(timeIntervalSince1970: 1_795_996_800 + 43_200)

    /// A configuration for `storeURL` with seeded IDs and the fixed today.
    func configuration(_ storeURL: URL, seed: UInt64 = 7) -> LedgerConfiguration {
        var configuration = LedgerConfiguration(storeURL: storeURL)
        let ids = SeededUUIDGenerator(seed: seed)
        configuration.newID = { ids.next() }
        configuration.today = { Self.today }
        return configuration
    }

    /// A RAM ledger whose receipts go to `receipts/` in the sandbox.
    func ramLedger(seed: UInt64 = 7) throws -> Ledger {
        var configuration = configuration(URL(fileURLWithPath: "/dev/null"), seed: seed)
        configuration.receiptsDirectory = directory.appendingPathComponent("receipts")
        return try Ledger(configuration, access: .create)
    }

    /// A file in the sandbox.
    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes `text` to a sandbox file and returns its URL.
    func write(_ name: String, _ text: String) throws -> URL {
        let url = url(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Removes the sandbox.
    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// A decimal from its exact text.
func dec(_ text: String) -> Decimal { Decimal(string: text)! }

/// A calendar date from `YYYY-MM-DD`.
func day(_ text: String) -> Date { LedgerDates.parse(text)! }

/// The error's message (a ledger's or the engine's), or its description for other errors.
func message(of error: any Error) -> String {
    (error as? LedgerError)?.message ?? (error as? ObjectGraphError)?.message ?? "\(error)"
}
