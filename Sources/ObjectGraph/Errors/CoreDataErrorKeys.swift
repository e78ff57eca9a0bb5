import Foundation

// Core Data's error and notification constants, under Core Data's exact names and values:
// Foundation on Linux does not define them, and ported code matches errors by them.

/// 1550: generic validation error. Mirrors Core Data's constant of the same name.
public let NSManagedObjectValidationError = 1550
/// 1551: uniqueness constraints violated. Mirrors Core Data's constant of the same name.
public let NSManagedObjectConstraintValidationError = 1551
/// 1560: several validation errors. Mirrors Core Data's constant of the same name.
public let NSValidationMultipleErrorsError = 1560
/// 1570: mandatory property is nil. Mirrors Core Data's constant of the same name.
public let NSValidationMissingMandatoryPropertyError = 1570
/// 1580: to-many below its minimum count. Mirrors Core Data's constant of the same name.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// 1590: to-many above its maximum count. Mirrors Core Data's constant of the same name.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// 1600: deny delete rule. Mirrors Core Data's constant of the same name.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// 1610: number too large. Mirrors Core Data's constant of the same name.
public let NSValidationNumberTooLargeError = 1610
/// 1620: number too small. Mirrors Core Data's constant of the same name.
public let NSValidationNumberTooSmallError = 1620
/// 1630: date too late. Mirrors Core Data's constant of the same name.
public let NSValidationDateTooLateError = 1630
/// 1640: date too soon. Mirrors Core Data's constant of the same name.
public let NSValidationDateTooSoonError = 1640
/// 1650: invalid date. Mirrors Core Data's constant of the same name.
public let NSValidationInvalidDateError = 1650
/// 1660: string too long. Mirrors Core Data's constant of the same name.
public let NSValidationStringTooLongError = 1660
/// 1670: string too short. Mirrors Core Data's constant of the same name.
public let NSValidationStringTooShortError = 1670
/// 1680: string does not match its pattern. Mirrors Core Data's constant of the same name.
public let NSValidationStringPatternMatchingError = 1680
/// 1690: invalid URI. Mirrors Core Data's constant of the same name.
public let NSValidationInvalidURIError = 1690
/// 132000: a context's lock could not be acquired. Mirrors Core Data's constant of the same name.
public let NSManagedObjectContextLockingError = 132000
/// 132010: a coordinator's lock could not be acquired. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreCoordinatorLockingError = 132010
/// 133000: object does not exist in the store. Mirrors Core Data's constant of the same name.
public let NSManagedObjectReferentialIntegrityError = 133000
/// 133010: relationship to an object in another store. Mirrors Core Data's constant of the same name.
public let NSManagedObjectExternalRelationshipError = 133010
/// 133020: unresolved optimistic-locking conflict. Mirrors Core Data's constant of the same name.
public let NSManagedObjectMergeError = 133020
/// 133021: unresolved constraint conflict. Mirrors Core Data's constant of the same name.
public let NSManagedObjectConstraintMergeError = 133021
/// 134000: unknown store type, format or version. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreInvalidTypeError = 134000
/// 134010: store is not of the requested type. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreTypeMismatchError = 134010
/// 134020: store schema incompatible. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// 134030: store save failed. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreSaveError = 134030
/// 134040: some of several stores failed to save. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreIncompleteSaveError = 134040
/// 134050: row versions conflicted in the store. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreSaveConflictsError = 134050
/// 134060: general Core Data error. Mirrors Core Data's constant of the same name.
public let NSCoreDataError = 134060
/// 134070: store operation failed. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreOperationError = 134070
/// 134080: store could not be opened. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreOpenError = 134080
/// 134090: store could not be reached in time. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreTimeoutError = 134090
/// 134091: store does not support the request. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// 134100: model version hashes do not match. Mirrors Core Data's constant of the same name.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
/// 134110: migration failed. Mirrors Core Data's constant of the same name.
public let NSMigrationError = 134110
/// 134111: migration violates a uniqueness constraint. Mirrors Core Data's constant of the same name.
public let NSMigrationConstraintViolationError = 134111
/// 134120: migration cancelled. Mirrors Core Data's constant of the same name.
public let NSMigrationCancelledError = 134120
/// 134130: migration source model missing. Mirrors Core Data's constant of the same name.
public let NSMigrationMissingSourceModelError = 134130
/// 134140: migration mapping model missing. Mirrors Core Data's constant of the same name.
public let NSMigrationMissingMappingModelError = 134140
/// 134150: migration source store unusable. Mirrors Core Data's constant of the same name.
public let NSMigrationManagerSourceStoreError = 134150
/// 134160: migration destination store unusable. Mirrors Core Data's constant of the same name.
public let NSMigrationManagerDestinationStoreError = 134160
/// 134170: entity migration policy failed. Mirrors Core Data's constant of the same name.
public let NSEntityMigrationPolicyError = 134170
/// 134180: general SQLite error. Mirrors Core Data's constant of the same name.
public let NSSQLiteError = 134180
/// 134190: mapping could not be inferred. Mirrors Core Data's constant of the same name.
public let NSInferredMappingModelError = 134190
/// 134200: importing external records failed. Mirrors Core Data's constant of the same name.
public let NSExternalRecordImportError = 134200
/// 134301: history token expired. Mirrors Core Data's constant of the same name.
public let NSPersistentHistoryTokenExpiredError = 134301

/// userInfo key of the array of errors a 1560 collects. Mirrors Core Data's `NSDetailedErrorsKey`.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// userInfo key of the object that failed validation. Mirrors Core Data's constant.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// userInfo key of the property key that failed validation. Mirrors Core Data's constant.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// userInfo key of the predicate that failed validation. Mirrors Core Data's constant.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// userInfo key of the value that failed validation. Mirrors Core Data's constant.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// userInfo key of the affected stores. Mirrors Core Data's constant.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// userInfo key, in a save over several stores that failed with 134040
/// (``ObjectGraphError/Reason/incompleteSave``), of the stores (`[any PersistentStore]`) that
/// kept their part of the save: the failed store is under `NSAffectedStoresErrorKey`. An
/// ObjectGraph addition: Core Data does not say which stores kept their part.
public let KeptStoresErrorKey = "KeptStoresErrorKey"
/// userInfo key of the affected objects. Mirrors Core Data's constant.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// userInfo key of the conflict list of a 133020/133021. Mirrors Core Data's constant.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// The error domain of SQLite result codes. Mirrors Core Data's constant (no built-in store uses it).
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"

/// userInfo key: inserted objects (did-save, objects-did-change, remote merges).
public let NSInsertedObjectsKey = "inserted"
/// userInfo key: updated objects.
public let NSUpdatedObjectsKey = "updated"
/// userInfo key: deleted objects.
public let NSDeletedObjectsKey = "deleted"
/// userInfo key: refreshed objects.
public let NSRefreshedObjectsKey = "refreshed"
/// userInfo key: invalidated objects.
public let NSInvalidatedObjectsKey = "invalidated"
/// userInfo key: all objects invalidated (reset).
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
/// userInfo key: IDs of inserted objects.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// userInfo key: IDs of updated objects.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// userInfo key: IDs of deleted objects.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// userInfo key: IDs of refreshed objects.
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// userInfo key: IDs of invalidated objects.
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
