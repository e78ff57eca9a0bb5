import Foundation

extension ObjectGraphError {
    /// The identity of an error's condition: a stable name and the Core Data code that
    /// condition carries.
    ///
    /// Every distinct condition ObjectGraph reports has its own reason, declared beside the
    /// subsystem that throws it: validation (``missingMandatoryProperty``, …), saving
    /// (``mergeConflict``, …), models (``duplicateEntity``, …), predicates
    /// (``predicateSyntax``, …), fetches, batch requests, stores and containers. Several
    /// reasons may share a code: Core Data reports bad models, predicates and fetch requests
    /// alike (134060, `NSCoreDataError`), but they are different reasons here.
    ///
    /// Match a reason in a `catch` clause, a `switch` or with `==`:
    ///
    /// ```swift
    /// catch ObjectGraphError.stringTooLong { … }
    /// if (error as? ObjectGraphError)?.reason == .storeLocked { … }
    /// ```
    ///
    /// - Note: Stands for the codes of `CoreDataErrors.h`, made distinct where Core Data lumps
    ///   conditions together (as GRDB's `DatabaseError` matches SQLite's extended codes).
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, e.g. `"missingMandatoryProperty"`; stable across versions.
        public let name: String
        /// The `NSError` code errors of this reason carry: Core Data's wherever Core Data has
        /// one (1570, 133020, 134030, …), else 134060 (`NSCoreDataError`).
        public let code: Int

        /// A reason named `name` with Core Data's `code`.
        package init(_ name: String, code: Int) {
            self.name = name
            self.code = code
        }

        /// The name and code, e.g. `"missingMandatoryProperty (1570)"`.
        public var description: String { "\(name) (\(code))" }
    }
}

/// Whether `error` is an ``ObjectGraphError`` of `reason`: the pattern behind
/// `catch ObjectGraphError.missingMandatoryProperty` and `case ObjectGraphError.storeLocked:`.
///
/// A 1560 matches ``ObjectGraphError/multipleValidationErrors`` only, not the reasons of the
/// errors it lists; look in its ``ObjectGraphError/underlying`` for those.
public func ~= (reason: ObjectGraphError.Reason, error: any Error) -> Bool {
    (error as? ObjectGraphError)?.reason == reason
}

extension ObjectGraphError.Reason {
    /// An error of another domain kept unchanged in a list (your own validation error in a
    /// 1560's ``ObjectGraphError/underlying``); its code is the original's.
    public static let otherError = Self("otherError", code: 0)
}

extension ObjectGraphError {
    /// ``Reason/otherError``, for `catch` clauses.
    public static var otherError: Reason { .otherError }
}
