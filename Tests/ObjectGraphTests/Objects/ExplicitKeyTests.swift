import Foundation
import Testing

@testable import ObjectGraph

/// A class whose every kind of wrapper renames its key.
private final class Ledger: ManagedObject {
    @Attribute("ledger_title") var title: String?
    @Attribute("ledger_total") var total: Double
    @Transformable("ledger_tags") var tags: [String]?
    @Relationship("ledger_owner") var owner: Keeper?
}

/// The other side: a renamed to-many, and a renamed attribute whose key string is also
/// `Ledger`'s (`ledger_title`), for a different entity's slot.
private final class Keeper: ManagedObject {
    @Attribute var name: String?
    @Attribute("ledger_title") var badge: String?
    @Relationship("kept_ledgers") var ledgers: Set<Ledger>
}

/// A class whose renamed attribute's key is missing from its entity (which has the
/// property's name instead).
private final class Stray: ManagedObject {
    @Attribute("stray_missing") var value: String?
}

/// Explicit keys (`@Attribute("key")`, `@Relationship("key")`, `@Transformable("key")`) are
/// kept in each object as a 2-byte number into a process-wide table of interned keys: every
/// path that names a renamed property must still find the model's key.
@Suite struct ExplicitKeyTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Ledger", managedObjectClass: Ledger.self,
                properties: [
                    // The slot order differs from the declaration order on purpose.
                    AttributeDescription(name: "ledger_total", type: .double, defaultValue: 0.0),
                    AttributeDescription(name: "ledger_tags", type: .transformable),
                    RelationshipDescription(
                        name: "ledger_owner", destination: "Keeper", inverse: "kept_ledgers"),
                    AttributeDescription(name: "ledger_title", type: .string),
                ]),
            EntityDescription(
                name: "Keeper", managedObjectClass: Keeper.self,
                properties: [
                    RelationshipDescription(
                        name: "kept_ledgers", destination: "Ledger", inverse: "ledger_owner",
                        isToMany: true),
                    AttributeDescription(name: "ledger_title", type: .string),
                    AttributeDescription(name: "name", type: .string),
                ]),
        ])
    }

    private static func context(file: Bool) throws -> (ManagedObjectContext, URL?) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        var url: URL?
        if file {
            let u = TemporaryStoreFiles.next("explicit-keys")
            try coordinator.addPersistentStore(with: PersistentStoreDescription(url: u))
            url = u
        } else {
            try coordinator.addPersistentStore(with: PersistentStoreDescription())
        }
        return (ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator), url)
    }

    @Test(arguments: [false, true])
    func renamedPropertiesReadAndWriteTheirModelsKeysThroughEveryPath(file: Bool) throws {
        let (context, url) = try Self.context(file: file)
        defer { if let url { try? FileManager.default.removeItem(at: url) } }
        try context.performAndWait {
            let keeper = Keeper(context: context)
            keeper.name = "K"
            keeper.badge = "gold"
            for (title, total) in [("b", 2.0), ("a", 3.0), ("c", 1.0)] {
                let ledger = Ledger(context: context)
                ledger.title = title
                ledger.total = total
                ledger.tags = [title, "x"]
                ledger.owner = keeper
            }
            // Through the wrappers and key-value coding, both ways.
            let first = try #require(keeper.ledgers.first { $0.title == "a" })
            #expect(first.value(forKey: "ledger_title") as? String == "a")
            #expect(first.value(forKey: "ledger_total") as? Double == 3.0)
            #expect(first.value(forKey: "ledger_owner") as? Keeper === keeper)
            #expect(keeper.value(forKey: "ledger_title") as? String == "gold")
            #expect(
                try first.transformedValue(forKey: "ledger_tags", as: [String].self) == ["a", "x"])
            first.setValue("A", forKey: "ledger_title")
            #expect(first.title == "A")
            first.title = "a"
            #expect(first.changedValues()["ledger_title"] as? String == "a")
            #expect(keeper.ledgers.count == 3)
            try context.save()
        }
        // A fresh context fetches by a predicate and a sort descriptor made from key paths.
        let other = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        try other.performAndWait {
            let predicate = try FetchPredicate(
                translating: #Predicate<Ledger> { $0.total > 1.5 && $0.owner?.badge == "gold" })
            #expect(
                predicate.description
                    == #"ledger_total > 1.5e0 AND ledger_owner.ledger_title == "gold""#)
            let request = FetchRequest<Ledger>(entityName: "Ledger")
            request.predicate = predicate
            request.sortDescriptors = [
                try FetchSortDescriptor(SortDescriptor(\Ledger.title, order: .reverse))
            ]
            #expect(
                try FetchSortDescriptor(SortDescriptor(\Ledger.title, order: .reverse))
                    == FetchSortDescriptor(key: "ledger_title", ascending: false))
            let found = try other.fetch(request)
            #expect(found.map(\.title) == ["b", "a"])
            #expect(found.map(\.tags) == [["b", "x"], ["a", "x"]])
            #expect(found.allSatisfy { $0.owner?.name == "K" })
            #expect(
                FetchExpression(forKeyPath: \Ledger.owner?.badge)
                    == .keyPath("ledger_owner.ledger_title"))
            let keeper = try #require(found.first?.owner)
            #expect(keeper.badge == "gold")
            #expect(Set(keeper.ledgers.compactMap(\.title)) == ["a", "b", "c"])
        }
    }

    @Test func twoClassesSharingAnExplicitKeyStringEachReadTheirOwnEntitysSlot() throws {
        #expect(
            Attribute<String?>("ledger_title").keyNumber == Attribute<Int>("ledger_title").keyNumber
        )
        #expect(
            Relationship<Keeper?>("ledger_title").keyNumber
                == Attribute<Int>("ledger_title").keyNumber)
        let (context, _) = try Self.context(file: false)
        context.performAndWait {
            let ledger = Ledger(context: context)
            let keeper = Keeper(context: context)
            ledger.title = "ledger's"
            keeper.badge = "keeper's"
            #expect(ledger.title == "ledger's")
            #expect(keeper.badge == "keeper's")
            #expect(ledger.value(forKey: "ledger_title") as? String == "ledger's")
            #expect(keeper.value(forKey: "ledger_title") as? String == "keeper's")
        }
    }

    @Test func manyDistinctKeysKeepDistinctNumbersAndReadBack() {
        // Enough keys to replace the interned table several times (it starts at 64 cells and
        // doubles before it is half full); long keys, keys outside ASCII, and a key that is
        // a prefix of another.
        let keys = (0..<3_000).map { i -> String in
            switch i % 4 {
            case 0: "k\(i)"
            case 1: "a_much_longer_explicit_key_that_is_not_a_small_string_\(i)"
            case 2: "clé_\(i)_ü"
            default: "k\(i - 3)_"
            }
        }
        let numbers = keys.map { ExplicitKeys.number(of: $0) }
        #expect(Set(numbers).count == keys.count)
        #expect(!numbers.contains(0))
        for (key, number) in zip(keys, numbers) {
            #expect(ExplicitKeys.number(of: key) == number)
            #expect(ExplicitKeys.key(number) == key)
            // A key made at run time (not a literal) finds the same entry.
            #expect(ExplicitKeys.number(of: String(key.reversed().reversed())) == number)
        }
        #expect(ExplicitKeys.key(0) == nil)
        #expect(Attribute<Int>().key == nil)
        #expect(Attribute<Int>(keys[5]).key == keys[5])
        #expect(Transformable<[String]?>(keys[6]).key == keys[6])
    }

    @Test func threadsInterningTheSameKeysAgreeOnTheirNumbers() async {
        let keys = (0..<400).map { "concurrent-key-\($0)" }
        let results = await withTaskGroup(of: [UInt16].self) { group in
            for t in 0..<4 {
                group.addTask {
                    let order = t % 2 == 0 ? keys : keys.reversed()
                    let numbers = order.map { ExplicitKeys.number(of: $0) }
                    return t % 2 == 0 ? numbers : numbers.reversed()
                }
            }
            var all: [[UInt16]] = []
            for await numbers in group { all.append(numbers) }
            return all
        }
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0 == results[0] })
        #expect(Set(results[0]).count == keys.count)
    }

    @Test func wrappersAreTwoBytesAndTriviallyDestroyed() {
        #expect(MemoryLayout<Attribute<String?>>.size == 2)
        #expect(MemoryLayout<Relationship<Set<Keeper>>>.size == 2)
        #expect(MemoryLayout<Transformable<[String]?>>.size == 2)
        #expect(_isPOD(Attribute<String?>.self))
        #expect(_isPOD(Relationship<Keeper?>.self))
        #expect(_isPOD(Transformable<[String]?>.self))
        #expect(MemoryLayout<ObjectState>.size == 1)
    }

    /// The sizes `docs/performance.md`'s audit of an object's bytes gives (fourteenth
    /// session, branch `mem`): a change here changes every object's size.
    @Test func theObjectsFieldsKeepTheirAuditedSizes() {
        #expect(MemoryLayout<ManagedObjectID>.size == 16)
        #expect(MemoryLayout<[ObjectValue]>.size == 8)
        #expect(MemoryLayout<[StoreValue]?>.size == 8)
        #expect(MemoryLayout<Snapshot?>.size == 8)
        #expect(MemoryLayout<SlotSet>.size == 16)
        #expect(MemoryLayout<FaultSource?>.size == 8)
    }

    @Test func theLifeCycleFlagsAreIndependent() {
        var state = ObjectState()
        let flags: [WritableKeyPath<ObjectState, Bool>] = [
            \.isInserted, \.isDeleted, \.deletionProcessed, \.isPending, \.willSaveCalled,
            \.isUnannounced, \.keepsResolvedRelationships,
        ]
        for (i, flag) in flags.enumerated() {
            state[keyPath: flag] = true
            for (j, other) in flags.enumerated() { #expect(state[keyPath: other] == (j <= i)) }
        }
        state.clearLifecycle()
        #expect(!state.isInserted && !state.isDeleted && !state.deletionProcessed)
        #expect(
            state.isPending && state.willSaveCalled && state.isUnannounced
                && state.keepsResolvedRelationships)
        state.isPending = false
        #expect(!state.isPending && state.willSaveCalled)
    }

    @Test func aRenamedKeyMissingFromItsEntityIsNamedInTheTrap() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let entity = EntityDescription(
                name: "Stray", managedObjectClass: Stray.self,
                properties: [AttributeDescription(name: "value", type: .string)])
            let coordinator = PersistentStoreCoordinator(
                managedObjectModel: try ManagedObjectModel(entities: [entity]))
            try coordinator.addPersistentStore(with: PersistentStoreDescription())
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.performAndWait { _ = Stray(context: context).value }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "@Attribute stray_missing: entity Stray has no attribute 'stray_missing'"))
    }

    /// Keys that differ only in their last character start their probes from cells spread
    /// over the table: 26 of them in 128 cells take about as many home cells as random
    /// hashes would (≈ 23.6; these take 26, and the ten `field0` … `field9` ten). The review of `mem`: the home cell was the FNV-1a hash's bits
    /// 17 and up, which a key's last byte reaches only through a carry, so `col_a` … `col_z`
    /// had 2 home cells and a probe crossed 13 cells on average.
    @Test func keysDifferingInTheirLastCharacterSpreadOverTheTable() {
        let cells = KeyCells(capacity: 128)
        let keys = "abcdefghijklmnopqrstuvwxyz".map { "col_\($0)" }
        let homes = Set(keys.map { cells.home(ExplicitKeys.hash($0)) })
        #expect(homes.count >= 22, "\(homes.count) home cells for 26 keys")
        let digits = Set((0...9).map { cells.home(ExplicitKeys.hash("field\($0)")) })
        #expect(digits.count >= 8, "\(digits.count) home cells for 10 keys")
    }
}
