import Foundation
@_spi(Reflection) import Swift
import Testing

@testable import ObjectGraph

/// A class whose attribute setters go through `@Attribute` (the path `writeAttribute` serves).
private final class Reading: ManagedObject {
    @Attribute var label: String?
    @Attribute var level: Double
    @Attribute var count: Int32
    @Attribute var taken: Date?
}

/// A generic class nested in a type, for the key-path names.
private enum Station {
    final class Gauge<Unit>: ManagedObject {
        @Attribute("depth") var meters: Double
        @Attribute var serial: String?
    }
}

extension Reading {
    /// The wrappers' storage key paths (private to the class and this file).
    static var storageKeyPaths: [(AnyKeyPath, String)] {
        [(\Reading._label, "label"), (\Reading._level, "level"), (\Reading._count, "count")]
    }
}

extension ManagedObject {
    /// The site `WrapperSite` computes for the wrapper at `keyPath` (one of a test class's
    /// `storageKeyPaths`).
    fileprivate static func site<Object: ManagedObject>(_ object: Object, _ keyPath: AnyKeyPath)
        -> WrapperSite
    {
        if let attribute = keyPath as? ReferenceWritableKeyPath<Object, Attribute<String?>> {
            return WrapperSite(object, attribute)
        }
        if let attribute = keyPath as? ReferenceWritableKeyPath<Object, Attribute<Double>> {
            return WrapperSite(object, attribute)
        }
        let attribute = keyPath as! ReferenceWritableKeyPath<Object, Attribute<Int32>>
        return WrapperSite(object, attribute)
    }
}

extension Station.Gauge {
    static var storageKeyPaths: [(AnyKeyPath, String)] {
        [(\Station.Gauge<Unit>._meters, "meters"), (\Station.Gauge<Unit>._serial, "serial")]
    }
}

extension SaveIntegrity {
    /// An attribute write records a change exactly when the stored value differs by stored
    /// identity (`AttributeValue`'s `==`: floating-point values by bit pattern), for a new
    /// object as for a saved one, whichever setter writes it (`@Attribute`, `setValue`,
    /// `setAttributeValue`).
    @Suite struct AttributeWriteTests {
        private func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Reading", managedObjectClass: Reading.self,
                    properties: [
                        AttributeDescription(name: "label", type: .string),
                        AttributeDescription(
                            name: "level", type: .double, isOptional: false, defaultValue: 0),
                        AttributeDescription(name: "count", type: .integer32, defaultValue: 7),
                        AttributeDescription(name: "taken", type: .date),
                    ])
            ])
        }

        /// A new object: writing a slot's default (nil, 0.0, 7) again records nothing, a value
        /// of another case or another bit pattern (-0.0 after 0.0) is recorded; writing the
        /// same value back after a change keeps the key changed (it was set).
        @Test(arguments: StoreKind.all)
        func aNewObjectRecordsOnlyWritesThatChangeItsValues(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let reading = Reading(context: context)
                reading.label = nil
                reading.level = 0
                reading.count = 7
                reading.setValue(nil, forKey: "taken")
                reading.setAttributeValue(.integer(7), forKey: "count")
                #expect(reading.changedValues().isEmpty)
                reading.level = -0.0
                #expect(Set(reading.changedValues().keys) == ["level"])
                reading.label = "north"
                reading.setValue(Int32(8), forKey: "count")
                #expect(Set(reading.changedValues().keys) == ["level", "label", "count"])
                #expect(reading.changedValues()["label"] as? String == "north")
                try context.save()
                let saved = try #require(stack.rows("Reading").first)
                #expect(saved.values[0] == .attribute(.string("north")))
                #expect(saved.values[1] == .attribute(.double(-0.0)))
                #expect(saved.values[2] == .attribute(.integer(8)))
                #expect(saved.values[3] == .attribute(.null))
            }
        }

        /// A saved object: the same value (NaN included, by bit pattern; an integer through
        /// any setter) is no change; nil after a value, a value after nil and a new value of
        /// the same case are; each is announced by objects-did-change and saved.
        @Test(arguments: StoreKind.all)
        func aSavedObjectRecordsOnlyWritesThatChangeItsValues(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let context = stack.context()
            let recorder = ChangeRecorder(context)
            try context.performAndWait {
                let reading = Reading(context: context)
                reading.label = "east"
                reading.level = .nan
                try context.save()
                recorder.clear()
                reading.label = "east"
                reading.level = .nan
                reading.count = 7
                reading.setAttributeValue(.integer(7), forKey: "count")
                reading.setValue(nil, forKey: "taken")
                #expect(!reading.hasChanges)
                context.processPendingChanges()
                #expect(recorder.all.isEmpty)
                reading.label = nil
                reading.taken = Date(timeIntervalSince1970: 60)
                reading.count = 9
                #expect(Set(reading.changedValues().keys) == ["label", "taken", "count"])
                #expect(
                    reading.committedValues(forKeys: ["label"])["label"] as? String == "east")
                context.processPendingChanges()
                #expect(recorder.all.map { $0.set(NSUpdatedObjectsKey) } == [[reading]])
                try context.save()
                let row = try #require(stack.rows("Reading").first)
                #expect(row.values[0] == .attribute(.null))
                #expect(row.values[2] == .attribute(.integer(9)))
                #expect(row.values[3] == .attribute(.date(Date(timeIntervalSince1970: 60))))
            }
        }

        /// An object fetched in a fresh context, as a fault and as an object that keeps its
        /// store row: writing the values it holds fires the fault or reads the row and records
        /// nothing (no change, nothing to undo); a new value is recorded with the row's value as
        /// the committed one, undo puts the row's value back, and the save stores the new one.
        /// (The lead's review of `ins`: `writeAttribute` on the paths that fire a fault and
        /// convert a kept row first.)
        @Test(arguments: StoreKind.all)
        func anObjectFromTheStoreRecordsOnlyWritesThatChangeItsValues(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let id = try stack.seed("Reading", ["label": "west", "level": 2.5, "count": Int32(3)])
            // The first pass saves level 5, which the second finds.
            for (asFaults, stored) in [(true, 2.5), (false, 5.0)] {
                let context = stack.context()
                try context.performAndWait {
                    context.undoManager = ObjectGraphUndoManager()
                    let request = FetchRequest<ManagedObject>(entityName: "Reading")
                    request.returnsObjectsAsFaults = asFaults
                    let reading = try #require(try context.fetch(request).first as? Reading)
                    #expect(reading.objectID == id)
                    #expect(reading.isFault == asFaults)
                    reading.label = "west"
                    reading.level = stored
                    reading.setValue(Int32(3), forKey: "count")
                    reading.setAttributeValue(.null, forKey: "taken")
                    #expect(!reading.isFault)
                    #expect(!reading.hasChanges)
                    #expect(!context.hasChanges)
                    context.processPendingChanges()
                    #expect(context.undoManager?.canUndo == false)
                    reading.level = 4
                    #expect(Set(reading.changedValues().keys) == ["level"])
                    #expect(
                        reading.committedValues(forKeys: ["level"])["level"] as? Double == stored)
                    context.processPendingChanges()
                    context.undo()
                    #expect(reading.level == stored)
                    #expect(!reading.hasChanges)
                    reading.level = asFaults ? 5 : 6
                    try context.save()
                }
                let row = try #require(try stack.rows("Reading").first)
                #expect(row.values[0] == .attribute(.string("west")))
                #expect(row.values[1] == .attribute(.double(asFaults ? 5 : 6)))
                #expect(row.values[2] == .attribute(.integer(3)))
            }
        }

        /// A string that is canonically equivalent to the one held but spelt with other Unicode
        /// scalars ("é" precomposed, then "e" and a combining acute accent) is a change: it is
        /// recorded, undone, saved and read back as written. `NSString`'s `isEqual(to:)` is a
        /// literal comparison in which "Ö" composed and decomposed differ (Apple's documentation
        /// of `NSString.isEqual(to:)`); Swift's `==` calls them equal, and the write was lost.
        @Test(arguments: StoreKind.all)
        func aStringSpeltWithOtherScalarsIsAChangeAndIsSavedAsWritten(kind: StoreKind) throws {
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            #expect(composed == decomposed)
            let stack = try Stack(try model(), on: kind)
            let id = try stack.seed("Reading", ["label": composed])
            let context = stack.context()
            try context.performAndWait {
                context.undoManager = ObjectGraphUndoManager()
                let reading = try #require(try context.existingObject(with: id) as? Reading)
                reading.label = decomposed
                #expect(reading.hasChanges)
                #expect(Set(reading.changedValues().keys) == ["label"])
                context.processPendingChanges()
                context.undo()
                #expect(
                    reading.label.map { Array($0.unicodeScalars) } == Array(composed.unicodeScalars)
                )
                #expect(!reading.hasChanges)
                reading.label = decomposed
                try context.save()
            }
            let row = try #require(try stack.rows("Reading").first)
            guard case .attribute(.string(let saved)) = row.values[0] else {
                Issue.record("label holds \(row.values[0])")
                return
            }
            #expect(Array(saved.utf8) == Array(decomposed.utf8))
            #expect(AttributeValue.string(composed) != .string(decomposed))
        }

        /// `fits(_:)`, which every write's coercion asks first: `.null` and any value fit an
        /// undefined type, an integer fits an integer type by range, another value its own type.
        @Test func valuesFitTheirTypesAsBefore() {
            #expect(AttributeValue.null.fits(.string))
            #expect(AttributeValue.integer(70_000).fits(.undefined))
            #expect(AttributeValue.string("x").fits(.undefined))
            #expect(AttributeValue.integer(70_000).fits(.integer32))
            #expect(!AttributeValue.integer(70_000).fits(.integer16))
            #expect(!AttributeValue.integer(1).fits(.double))
            #expect(AttributeValue.double(1).fits(.double))
            #expect(!AttributeValue.double(1).fits(.float))
            #expect(!AttributeValue.string("x").fits(.uuid))
        }

        /// The key of a wrapper without an explicit key is its property's name, read from the
        /// class's field metadata at the offset its accessor computes (the storage projected
        /// through its key path: in this debug build the key path runtime's projection, which
        /// must give the field's own address), also for a generic class nested in another
        /// type; the reflected offset is the field's, and the site reads the explicit key.
        @Test func aWrappersKeyIsItsPropertysNameFoundByItsStoragesOffset() throws {
            let entity = EntityDescription(name: "Reading", managedObjectClass: Reading.self)
            let reading = Reading(entity: entity, insertInto: nil)
            let gauge = Station.Gauge<Int>(entity: entity, insertInto: nil)
            let sites =
                Reading.storageKeyPaths.map { (type(of: reading), Reading.site(reading, $0), $1) }
                + Station.Gauge<Int>.storageKeyPaths.map {
                    (type(of: gauge), Station.Gauge<Int>.site(gauge, $0), $1)
                }
            #expect(sites.count == 5)
            for (objectClass, site, name) in sites {
                #expect(PropertyKeys.fieldName(of: objectClass, offset: site.offset) == name)
                var reflected: Int?
                _ = _forEachField(of: objectClass, options: PropertyKeys.fieldOptions) {
                    field, offset, _, _ in
                    if String(cString: field) == "_" + name { reflected = offset }
                    return true
                }
                #expect(site.offset == reflected)
            }
            let keys = sites.map { PropertyKeys.key(of: $0.1, in: $0.0) }
            #expect(keys == ["label", "level", "count", "depth", "serial"])
        }
    }
}
