import Foundation

extension ObjectGraphError.Reason {
    /// 134140 (`NSMigrationMissingMappingModelError`): no mapping can be inferred for a
    /// migration, or inference is off and no staged migration covers it; the reasons are an
    /// underlying ``inferredMappingFailed``.
    public static let migrationMissingMappingModel = Self(
        "migrationMissingMappingModel", code: 134140)
    /// 134190 (`NSInferredMappingModelError`): why a mapping could not be inferred.
    public static let inferredMappingFailed = Self("inferredMappingFailed", code: 134190)
    /// 134110 (`NSMigrationError`): the rows cannot take the destination's shape (a required
    /// value missing, several targets for a new to-one).
    public static let migrationFailed = Self("migrationFailed", code: 134110)
    /// 134111 (`NSMigrationConstraintViolationError`): migrated rows break a uniqueness
    /// constraint of the destination.
    public static let migrationConstraintViolation = Self(
        "migrationConstraintViolation", code: 134111)
    /// 134160 (`NSMigrationManagerDestinationStoreError`): writing the migrated store failed;
    /// the original file is unchanged.
    public static let migrationDestinationStoreFailed = Self(
        "migrationDestinationStoreFailed", code: 134160)
    /// 134060 (`NSCoreDataError`): a model reference's file holds a model whose version
    /// checksum is not the one the reference names.
    public static let modelVersionMismatch = Self("modelVersionMismatch", code: 134060)
    /// 134060 (`NSCoreDataError`): store metadata holds a value that is not a JSON type, or
    /// the store keeps no metadata (the RAM store) or is read-only.
    public static let invalidMetadata = Self("invalidMetadata", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/migrationMissingMappingModel`` (134140), for `catch` clauses.
    public static var migrationMissingMappingModel: Reason { .migrationMissingMappingModel }
    /// ``Reason/inferredMappingFailed`` (134190), for `catch` clauses.
    public static var inferredMappingFailed: Reason { .inferredMappingFailed }
    /// ``Reason/migrationFailed`` (134110), for `catch` clauses.
    public static var migrationFailed: Reason { .migrationFailed }
    /// ``Reason/migrationConstraintViolation`` (134111), for `catch` clauses.
    public static var migrationConstraintViolation: Reason { .migrationConstraintViolation }
    /// ``Reason/migrationDestinationStoreFailed`` (134160), for `catch` clauses.
    public static var migrationDestinationStoreFailed: Reason {
        .migrationDestinationStoreFailed
    }
    /// ``Reason/modelVersionMismatch`` (134060), for `catch` clauses.
    public static var modelVersionMismatch: Reason { .modelVersionMismatch }
    /// ``Reason/invalidMetadata`` (134060), for `catch` clauses.
    public static var invalidMetadata: Reason { .invalidMetadata }
}
