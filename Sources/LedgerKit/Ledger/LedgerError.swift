import Foundation
import ObjectGraph

/// The error the ledger throws for its own conditions: an `NSError` in
/// ``errorDomain`` with a ``reason`` to match, a one-line message naming what is wrong (and,
/// where it helps, what to do), and the key, value, file and line involved.
///
/// Failures of the engine underneath (a store that is locked, a save that breaks a model
/// rule) reach the caller unchanged as `ObjectGraphError`s; this type covers what only the
/// ledger knows: unknown categories and IDs, values typed at the command line, CSV imports.
///
/// ```swift
/// do {
///     try ledger.deleteCategory("Food", rule: .deny)
/// } catch let error as LedgerError where error.reason == .categoryInUse {
///     print(error.message)
/// }
/// ```
public final class LedgerError: NSError, LocalizedError, @unchecked Sendable {
    // Sendable: every stored property is a `let` of a Sendable type.

    /// The ledger's error domain, `"LedgerErrorDomain"`.
    public static let errorDomain = "LedgerErrorDomain"

    /// The condition; its ``Reason/code`` is the error's `code`.
    public let reason: Reason
    /// What went wrong, in one line (the `localizedDescription`).
    public let message: String
    /// The entity involved (`"Category"`, `"Transaction"`), if any.
    public let entityName: String?
    /// The option or property involved (`"--date"`, `"amount"`, `"name"`), if any.
    public let key: String?
    /// The text at fault, as given, if any.
    public let value: String?
    /// The file involved (a ledger, a CSV export, a receipt), if any.
    public let file: String?
    /// The 1-based physical line in ``file``, if known.
    public let line: Int?
    /// The errors this one collects (each bad row of an all-or-nothing import).
    public let underlying: [LedgerError]

    init(
        _ reason: Reason, _ message: String, entityName: String? = nil, key: String? = nil,
        value: String? = nil, file: String? = nil, line: Int? = nil,
        underlying: [LedgerError] = []
    ) {
        self.reason = reason
        self.message = message
        self.entityName = entityName
        self.key = key
        self.value = value
        self.file = file
        self.line = line
        self.underlying = underlying
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let file { info[NSFilePathErrorKey] = file }
        if !underlying.isEmpty { info[NSDetailedErrorsKey] = underlying as [NSError] }
        super.init(domain: Self.errorDomain, code: reason.code, userInfo: info)
    }

    /// Unavailable: the ledger's errors are not archived.
    public required init?(coder: NSCoder) { nil }

    /// The message, for `localizedDescription` (`LocalizedError`).
    public var errorDescription: String? { message }
    /// The message, as `NSError` reports it.
    public override var localizedDescription: String { message }
    /// The message with its domain and code, e.g. `"LedgerErrorDomain 4: no category named …"`.
    public override var description: String { "\(domain) \(code): \(message)" }

    /// The same error with another message (the importer adds the file and line).
    func reworded(_ message: String, underlying: [LedgerError]? = nil) -> LedgerError {
        LedgerError(
            reason, message, entityName: entityName, key: key, value: value, file: file,
            line: line, underlying: underlying ?? self.underlying)
    }
}

/// Whether `error` is a ``LedgerError`` of `reason`: `catch LedgerError.Reason.unknownCategory`.
public func ~= (reason: LedgerError.Reason, error: any Error) -> Bool {
    (error as? LedgerError)?.reason == reason
}

extension LedgerError {
    /// The identity of a ledger error's condition: a stable name and its code in
    /// ``LedgerError/errorDomain``.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, e.g. `"unknownCategory"`.
        public let name: String
        /// The code in ``LedgerError/errorDomain``.
        public let code: Int

        init(_ name: String, code: Int) {
            self.name = name
            self.code = code
        }

        /// The name and code, e.g. `"unknownCategory (4)"`.
        public var description: String { "\(name) (\(code))" }

        /// 1: a value typed for an option or field that cannot be read (a date, an amount, a
        /// sort key, a query).
        public static let badValue = Self("badValue", code: 1)
        /// 2: no ledger file where a command needs one.
        public static let noLedger = Self("noLedger", code: 2)
        /// 3: `ledger init` over an existing file.
        public static let ledgerExists = Self("ledgerExists", code: 3)
        /// 4: a category name that matches none.
        public static let unknownCategory = Self("unknownCategory", code: 4)
        /// 5: a category name already taken (ignoring case).
        public static let duplicateCategory = Self("duplicateCategory", code: 5)
        /// 6: a category deleted with the deny rule while it still has transactions.
        public static let categoryInUse = Self("categoryInUse", code: 6)
        /// 7: an ID prefix that matches no transaction.
        public static let unknownTransaction = Self("unknownTransaction", code: 7)
        /// 8: an ID prefix that matches several transactions.
        public static let ambiguousID = Self("ambiguousID", code: 8)
        /// 9: a receipt file that cannot be used.
        public static let receiptUnusable = Self("receiptUnusable", code: 9)
        /// 10: an operation the RAM store cannot do (compaction, verification, receipts).
        public static let needsFile = Self("needsFile", code: 10)
        /// 11: a store whose model is not a ledger's.
        public static let notALedger = Self("notALedger", code: 11)
        /// 20: import options that contradict each other or cannot be used.
        public static let importOptions = Self("importOptions", code: 20)
        /// 21: an import file that cannot be read at all.
        public static let importFileUnreadable = Self("importFileUnreadable", code: 21)
        /// 22: an import file that cannot be read as CSV (quoting, encoding, header).
        public static let importFileInvalid = Self("importFileInvalid", code: 22)
        /// 23: a column reference the header or the first record cannot satisfy.
        public static let importColumn = Self("importColumn", code: 23)
        /// 24: a row whose cell (date, amount, …) cannot be read, or that cannot be read as a
        /// whole; ``LedgerError/line`` is its line.
        public static let importRow = Self("importRow", code: 24)
        /// 25: an all-or-nothing import refused because of bad rows, listed in
        /// ``LedgerError/underlying``.
        public static let importBadRows = Self("importBadRows", code: 25)
        /// 30: a `ledger adjust` refused because new amounts would break the model's rules,
        /// listed in the message.
        public static let adjustmentRefused = Self("adjustmentRefused", code: 30)
    }
}
