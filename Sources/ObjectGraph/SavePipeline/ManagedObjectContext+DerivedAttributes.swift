import Foundation

extension ManagedObjectContext {
    /// Computes derived attributes of the objects a save writes: key paths (ending in
    /// `@count`, `@sum`, `@min`, `@max` or `@avg` on to-manys), `lowercase:(…)`,
    /// `uppercase:(…)`, `canonical:(…)` of a key path, and `now()` (the coordinator's clock).
    /// Other expressions are left alone (the Xcode reader warns about them).
    ///
    /// - Note: Core Data recomputes derived attributes during save, on SQLite stores only.
    func computeDerivedAttributes() {
        var compiled: [ObjectIdentifier: DerivedExpression?] = [:]
        var clockReading: Date?
        // Read the clock only when a `now()` needs it: injected clocks count their readings.
        let now: () -> Date = { [persistentStoreCoordinator] in
            if let clockReading { return clockReading }
            let reading = persistentStoreCoordinator?.clock() ?? Date()
            clockReading = reading
            return reading
        }
        for object in pending.objects where !object.state.isDeleted && object.hasChanges {
            let derived = object.entity.layout.derivedAttributes
            guard !derived.isEmpty else { continue }
            if !object.hasValues { object.fireFault() }
            for attribute in derived {
                let key = ObjectIdentifier(attribute)
                if compiled[key] == nil {
                    compiled[key] = DerivedExpression(attribute, entity: object.entity)
                }
                guard let expression = compiled[key] ?? nil,
                    let value = expression.value(for: object, now: now).coerced(to: attribute.type)
                else { continue }
                if object.slots[attribute.index].attributeValue != value {
                    object.keepCommittedValue(attribute.index)
                    object.slots[attribute.index] = .attribute(value)
                    object.markChanged(attribute.index)
                }
            }
        }
    }
}
