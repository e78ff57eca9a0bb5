import Foundation

extension PersistentStoreDescription {
    /// Whether the store posts `Notification.Name.NSPersistentStoreRemoteChange` for every
    /// write to it, this process's own included (see <doc:RemoteChange>). Default `false`.
    ///
    /// The same setting as the option
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` and
    /// ``StoreOptions/postsRemoteChangeNotifications``:
    ///
    /// ```swift
    /// description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
    /// // or
    /// description.postsRemoteChangeNotifications = true
    /// ```
    ///
    /// - Note: Mirrors the option `NSPersistentStoreRemoteChangeNotificationPostOptionKey`.
    public var postsRemoteChangeNotifications: Bool {
        get { locked { $0.storeOptions.postsRemoteChangeNotifications } }
        set { locked { $0.storeOptions.postsRemoteChangeNotifications = newValue } }
    }
}
