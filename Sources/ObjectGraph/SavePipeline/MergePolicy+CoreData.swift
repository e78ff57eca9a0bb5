import Foundation

// Core Data's merge policy constants, under Core Data's names, so that
// `context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy` ports unchanged.

/// ``MergePolicy/mergeByPropertyObjectTrump``: in-memory changes win, property by property.
/// Mirrors Core Data's constant of the same name.
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// ``MergePolicy/mergeByPropertyStoreTrump``: the store's changes win, property by property.
/// Mirrors Core Data's constant of the same name.
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// ``MergePolicy/overwrite``: the object's whole state is written over the store's. Mirrors
/// Core Data's constant of the same name.
public let NSOverwriteMergePolicy = MergePolicy.overwrite
/// ``MergePolicy/rollback``: the object's changes are discarded for the store's state. Mirrors
/// Core Data's constant of the same name.
public let NSRollbackMergePolicy = MergePolicy.rollback
/// ``MergePolicy/error``: conflicts fail the save (133020, 133021); the default. Mirrors Core
/// Data's constant of the same name.
public let NSErrorMergePolicy = MergePolicy.error
