import Foundation

extension ObjectGraphError {
    /// A numeric error code; Core Data's value wherever Core Data has one.
    ///
    /// - Note: Mirrors the constants of `CoreDataErrors.h`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric value.
        public let rawValue: Int
        /// Wraps a numeric value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// 1550: a generic validation failure (a custom validation rule).
        public static let validation = Code(rawValue: 1550)
        /// 1551: uniqueness constraints violated (validation-level report).
        public static let constraintValidation = Code(rawValue: 1551)
        /// 1560: several validation failures, listed under `NSDetailedErrorsKey`.
        public static let validationMultipleErrors = Code(rawValue: 1560)
        /// 1570: a mandatory property is nil.
        public static let validationMissingMandatoryProperty = Code(rawValue: 1570)
        /// 1580: a to-many holds fewer objects than its minimum.
        public static let validationRelationshipLacksMinimumCount = Code(rawValue: 1580)
        /// 1590: a to-many holds more objects than its maximum.
        public static let validationRelationshipExceedsMaximumCount = Code(rawValue: 1590)
        /// 1600: a deny delete rule refused the deletion.
        public static let validationRelationshipDeniedDelete = Code(rawValue: 1600)
        /// 1610: a number above its maximum.
        public static let validationNumberTooLarge = Code(rawValue: 1610)
        /// 1620: a number below its minimum.
        public static let validationNumberTooSmall = Code(rawValue: 1620)
        /// 1630: a date after its maximum.
        public static let validationDateTooLate = Code(rawValue: 1630)
        /// 1640: a date before its minimum.
        public static let validationDateTooSoon = Code(rawValue: 1640)
        /// 1650: an invalid date.
        public static let validationInvalidDate = Code(rawValue: 1650)
        /// 1660: a string longer than its maximum length.
        public static let validationStringTooLong = Code(rawValue: 1660)
        /// 1670: a string shorter than its minimum length.
        public static let validationStringTooShort = Code(rawValue: 1670)
        /// 1680: a string that does not match its pattern.
        public static let validationStringPatternMatching = Code(rawValue: 1680)
        /// 1690: a URI that cannot be represented.
        public static let validationInvalidURI = Code(rawValue: 1690)
        /// 132000: a context's lock could not be acquired.
        public static let contextLocking = Code(rawValue: 132000)
        /// 132010: a coordinator's lock could not be acquired.
        public static let coordinatorLocking = Code(rawValue: 132010)
        /// 133000: the object does not exist in the store (a fault that cannot be filled).
        public static let referentialIntegrity = Code(rawValue: 133000)
        /// 133010: a relationship crosses stores.
        public static let externalRelationship = Code(rawValue: 133010)
        /// 133020: optimistic-locking conflicts the merge policy did not resolve.
        public static let mergeConflict = Code(rawValue: 133020)
        /// 133021: uniqueness-constraint conflicts the merge policy did not resolve.
        public static let constraintConflict = Code(rawValue: 133021)
        /// 134000: an unknown store type, format or version.
        public static let storeInvalidType = Code(rawValue: 134000)
        /// 134010: the store is not of the type asked for.
        public static let storeTypeMismatch = Code(rawValue: 134010)
        /// 134020: the store's schema is incompatible.
        public static let storeIncompatibleSchema = Code(rawValue: 134020)
        /// 134030: a save failed in the store (I/O, disk full, …).
        public static let storeSave = Code(rawValue: 134030)
        /// 134040: a save failed in some of several stores.
        public static let storeIncompleteSave = Code(rawValue: 134040)
        /// 134050: a save found conflicts in the store.
        public static let storeSaveConflicts = Code(rawValue: 134050)
        /// 134060: a general error (also bad models and bad arguments).
        public static let coreData = Code(rawValue: 134060)
        /// 134070: a store operation failed.
        public static let storeOperation = Code(rawValue: 134070)
        /// 134080: a store could not be opened.
        public static let storeOpen = Code(rawValue: 134080)
        /// 134090: a store could not be reached in time (a held writer lock).
        public static let storeTimeout = Code(rawValue: 134090)
        /// 134091: the store does not support this request.
        public static let storeUnsupportedRequestType = Code(rawValue: 134091)
        /// 134100: the store's model version hashes do not match the model.
        public static let storeIncompatibleVersionHash = Code(rawValue: 134100)
        /// 134110: a migration failed.
        public static let migration = Code(rawValue: 134110)
        /// 134111: a migration would violate a uniqueness constraint.
        public static let migrationConstraintViolation = Code(rawValue: 134111)
        /// 134120: a migration was cancelled.
        public static let migrationCancelled = Code(rawValue: 134120)
        /// 134130: the source model of a migration is missing.
        public static let migrationMissingSourceModel = Code(rawValue: 134130)
        /// 134140: the mapping model of a migration is missing.
        public static let migrationMissingMappingModel = Code(rawValue: 134140)
        /// 134150: a migration's source store could not be read.
        public static let migrationManagerSourceStore = Code(rawValue: 134150)
        /// 134160: a migration's destination store could not be written.
        public static let migrationManagerDestinationStore = Code(rawValue: 134160)
        /// 134170: an entity migration policy failed.
        public static let entityMigrationPolicy = Code(rawValue: 134170)
        /// 134180: a general SQLite error (kept for Core Data parity; no built-in store uses it).
        public static let sqlite = Code(rawValue: 134180)
        /// 134190: a mapping could not be inferred.
        public static let inferredMapping = Code(rawValue: 134190)
        /// 134200: importing external records failed.
        public static let externalRecordImport = Code(rawValue: 134200)
        /// 134301: a history token older than the kept history.
        public static let historyTokenExpired = Code(rawValue: 134301)

        /// The number, e.g. `"1570"`.
        public var description: String { String(rawValue) }
    }
}
