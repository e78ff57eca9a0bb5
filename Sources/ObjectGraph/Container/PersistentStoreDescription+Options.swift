import Foundation

// Core Data's store option keys, under Core Data's names: ported code sets them with
// `setOption(_:forKey:)`.

/// Option key: record persistent history (an `NSNumber` Boolean); see
/// ``PersistentStoreDescription/tracksPersistentHistory`` and <doc:PersistentHistory>.
/// Mirrors Core Data's constant of the same name.
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Option key: post `Notification.Name.NSPersistentStoreRemoteChange` for every write to the
/// store (an `NSNumber` Boolean; ``StoreOptions/postsRemoteChangeNotifications``). Mirrors Core
/// Data's constant of the same name.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey =
    "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// Option key: ``PersistentStoreDescription/shouldMigrateStoreAutomatically``.
/// Mirrors Core Data's constant of the same name.
public let NSMigratePersistentStoresAutomaticallyOption =
    "NSMigratePersistentStoresAutomaticallyOption"
/// Option key: ``PersistentStoreDescription/shouldInferMappingModelAutomatically``.
/// Mirrors Core Data's constant of the same name.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Option key: ``PersistentStoreDescription/isReadOnly``. Mirrors Core Data's constant of the
/// same name.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// Option key: ``PersistentStoreDescription/timeout``, in seconds. Mirrors Core Data's
/// constant of the same name.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"

extension PersistentStoreDescription {
    /// The options as Core Data's dictionary: the known keys with their current values, and
    /// every other key as it was set.
    ///
    /// Always holds `NSMigratePersistentStoresAutomaticallyOption` and
    /// `NSInferMappingModelAutomaticallyOption`; `NSReadOnlyPersistentStoreOption`,
    /// `NSPersistentStoreTimeoutOption`, `NSPersistentHistoryTrackingKey`,
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` and
    /// `NSPersistentStoreStagedMigrationManagerOptionKey` when set.
    ///
    /// - Note: Mirrors `options`.
    public var options: [String: NSObject] {
        locked { state in
            var options = state.otherOptions
            options[NSMigratePersistentStoresAutomaticallyOption] = NSNumber(
                value: state.shouldMigrateStoreAutomatically)
            options[NSInferMappingModelAutomaticallyOption] = NSNumber(
                value: state.shouldInferMappingModelAutomatically)
            if state.storeOptions.isReadOnly {
                options[NSReadOnlyPersistentStoreOption] = NSNumber(value: true)
            }
            if state.storeOptions.lockTimeout != 0 {
                options[NSPersistentStoreTimeoutOption] = NSNumber(
                    value: state.storeOptions.lockTimeout)
            }
            if state.storeOptions.tracksHistory {
                options[NSPersistentHistoryTrackingKey] = NSNumber(value: true)
            }
            if state.storeOptions.postsRemoteChangeNotifications {
                options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = NSNumber(
                    value: true)
            }
            if let manager = state.storeOptions.stagedMigrationManager {
                options[NSPersistentStoreStagedMigrationManagerOptionKey] = manager
            }
            return options
        }
    }

    /// Sets (or, with `nil`, resets) the option `key`.
    ///
    /// The known keys set the typed settings: `NSReadOnlyPersistentStoreOption` →
    /// ``isReadOnly``, `NSPersistentStoreTimeoutOption` → ``timeout``,
    /// `NSMigratePersistentStoresAutomaticallyOption` → ``shouldMigrateStoreAutomatically``,
    /// `NSInferMappingModelAutomaticallyOption` → ``shouldInferMappingModelAutomatically``,
    /// `NSPersistentHistoryTrackingKey` → ``tracksPersistentHistory``, and
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` →
    /// ``postsRemoteChangeNotifications``. They take an `NSNumber`.
    /// `NSPersistentStoreStagedMigrationManagerOptionKey` takes a ``StagedMigrationManager``
    /// (``StoreOptions/stagedMigrationManager``).
    ///
    /// Any other key, or a known key with a value that is not an `NSNumber`, is kept in
    /// ``options`` and reported in the coordinator's ``PersistentStoreCoordinator/loadWarnings``
    /// when the store is loaded.
    ///
    /// ```swift
    /// description.setOption(true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
    /// ```
    ///
    /// - Note: Mirrors `setOption(_:forKey:)`.
    public func setOption(_ option: NSObject?, forKey key: String) {
        locked { state in
            state.otherOptions[key] = nil
            if key == NSPersistentStoreStagedMigrationManagerOptionKey,
                option == nil || option is StagedMigrationManager
            {
                state.storeOptions.stagedMigrationManager = option as? StagedMigrationManager
                return
            }
            guard let option else {
                Self.reset(key, in: &state)
                return
            }
            guard let number = option as? NSNumber, Self.knownKeys.contains(key) else {
                state.otherOptions[key] = option
                return
            }
            switch key {
            case NSReadOnlyPersistentStoreOption: state.storeOptions.isReadOnly = number.boolValue
            case NSPersistentStoreTimeoutOption: state.storeOptions.lockTimeout = number.doubleValue
            case NSMigratePersistentStoresAutomaticallyOption:
                state.shouldMigrateStoreAutomatically = number.boolValue
            case NSInferMappingModelAutomaticallyOption:
                state.shouldInferMappingModelAutomatically = number.boolValue
            case NSPersistentHistoryTrackingKey: state.storeOptions.tracksHistory = number.boolValue
            default: state.storeOptions.postsRemoteChangeNotifications = number.boolValue
            }
        }
    }

    /// The keys ``setOption(_:forKey:)`` maps onto typed settings.
    static let knownKeys: Set<String> = [
        NSReadOnlyPersistentStoreOption, NSPersistentStoreTimeoutOption,
        NSMigratePersistentStoresAutomaticallyOption, NSInferMappingModelAutomaticallyOption,
        NSPersistentHistoryTrackingKey, NSPersistentStoreRemoteChangeNotificationPostOptionKey,
    ]

    private static func reset(_ key: String, in state: inout State) {
        let defaults = State()
        switch key {
        case NSReadOnlyPersistentStoreOption: state.storeOptions.isReadOnly = false
        case NSPersistentStoreTimeoutOption:
            state.storeOptions.lockTimeout = defaults.storeOptions.lockTimeout
        case NSMigratePersistentStoresAutomaticallyOption:
            state.shouldMigrateStoreAutomatically = defaults.shouldMigrateStoreAutomatically
        case NSInferMappingModelAutomaticallyOption:
            state.shouldInferMappingModelAutomatically =
                defaults.shouldInferMappingModelAutomatically
        case NSPersistentHistoryTrackingKey: state.storeOptions.tracksHistory = false
        case NSPersistentStoreRemoteChangeNotificationPostOptionKey:
            state.storeOptions.postsRemoteChangeNotifications = false
        default: break
        }
    }
}

extension PersistentStoreDescription.State {
    /// What loading the store must refuse or report: throws for an option set that this
    /// build cannot honour; returns one warning per option it ignores.
    func checkOptions() throws -> [String] {
        let place = "store \(url?.path ?? "(no URL)")"
        return otherOptions.keys.sorted().map { key in
            PersistentStoreDescription.knownKeys.contains(key)
                ? "\(place): option \(key) takes an NSNumber, not \(Swift.type(of: otherOptions[key]!)); "
                    + "it is ignored"
                : "\(place): option \(key) is not one ObjectGraph knows; it is kept in options "
                    + "and ignored"
        }
    }
}
