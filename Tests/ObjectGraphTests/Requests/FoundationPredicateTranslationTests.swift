import Foundation
import Testing

@testable import ObjectGraph

// Computed properties the translation must refuse (or, for `sameAmount`, may accept: it
// returns the property it reads unchanged).
extension Transaction {
    var isLarge: Bool { amount > 100 }
    var doubledAmount: Decimal { amount * 2 }
    var sameAmount: Decimal { amount }
    var categoryName: String? { category?.name }
}

// An entity hierarchy: key paths to inherited properties go through the superclass's
// accessors, and a renamed property's key is the model's name.
class LibraryItem: ManagedObject {
    @Attribute var title: String?
}

final class Volume: LibraryItem {
    @Attribute var pages: Int
    @Attribute("shelf_code") var shelf: String?
}

/// `FetchPredicate(_ predicate: Predicate<Root>)` and `FetchSortDescriptor(_:)`: which
/// Foundation expressions become which predicate-language trees, and which are refused.
/// (Core Data's counterparts: `NSPredicate.init?(_:)` and `NSSortDescriptor.init(_:)`, iOS 17;
/// https://developer.apple.com/documentation/foundation/nspredicate/init(_:) — "the
/// converted predicate, or nil if conversion fails".)
@Suite struct FoundationPredicateTranslationTests {
    private func format(_ predicate: Predicate<Transaction>) throws -> String {
        try FetchPredicate(translating: predicate).description
    }

    @Test func comparisonsAndLogicBecomeThePredicateLanguage() throws {
        #expect(try format(#Predicate { $0.amount > 10 }) == "amount > 10.0")
        #expect(
            try format(#Predicate { $0.amount >= 5 && $0.amount < 40 || $0.note == "n3" })
                == #"(amount >= 5.0 AND amount < 40.0) OR note == "n3""#)
        #expect(try format(#Predicate { !($0.amount <= 10) }) == "NOT amount <= 10.0")
        #expect(try format(#Predicate { $0.note != nil }) == "note != nil")
        #expect(try format(#Predicate { $0.isCleared }) == "isCleared == YES")
        #expect(try format(#Predicate { $0.isCleared == false }) == "isCleared == NO")
        #expect(try format(#Predicate { _ in true }) == "TRUEPREDICATE")
    }

    @Test func optionalChainingBecomesKeyPaths() throws {
        #expect(
            try format(#Predicate { $0.category?.name == "Food" }) == #"category.name == "Food""#)
        #expect(try format(#Predicate { $0.category == nil }) == "category == nil")
        #expect(
            try format(#Predicate { $0.note?.contains("3") == true })
                == #"note != nil AND note CONTAINS "3""#)
        #expect(
            try format(#Predicate { $0.note?.starts(with: "n") ?? false })
                == #"note != nil AND note BEGINSWITH "n""#)
        #expect(
            try format(#Predicate { ($0.category?.name ?? "") == "" })
                == #"TERNARY(category.name != nil, category.name, "") == """#)
    }

    @Test func capturedValuesBecomeConstants() throws {
        let notes = ["n1", "n3"]
        let low = Decimal(10)
        #expect(
            try format(#Predicate { notes.contains($0.note ?? "") })
                == #"TERNARY(note != nil, note, "") IN {"n1", "n3"}"#)
        #expect(try format(#Predicate { $0.amount > low }) == "amount > 10.0")
        #expect(
            try format(#Predicate { (10...100).contains($0.amount) })
                == "amount BETWEEN {10.0, 100.0}")
        #expect(
            try format(#Predicate { (10..<100).contains($0.amount) })
                == "amount >= 10.0 AND amount < 100.0")
        #expect(try format(#Predicate { $0.amount * 2 > 50 }) == "amount * 2.0 > 50.0")
        #expect(try format(#Predicate { -$0.amount < -50 }) == "-(amount) < -50.0")
    }

    @Test func objectIDIsTheObjectItself() throws {
        // A captured ManagedObjectID cannot appear in a #Predicate (Foundation wants Codable
        // values), but objectID itself translates: it is SELF, or the object a path reaches.
        #expect(
            try FetchPredicate(
                translating: #Predicate<Transaction> { $0.category?.objectID != nil })
                == .comparison(.keyPath("category"), .notEqualTo, .constant(.null)))
        #expect(
            try FetchPredicate(translating: #Predicate<Category> { $0.objectID == $0.objectID })
                == .comparison(.evaluatedObject, .equalTo, .evaluatedObject))
    }

    @Test func toManyRelationshipsBecomeCountsAndSubqueries() throws {
        func format(_ p: Predicate<Category>) throws -> String {
            try FetchPredicate(translating: p).description
        }
        #expect(try format(#Predicate { $0.transactions.count > 1 }) == "transactions.@count > 1")
        #expect(try format(#Predicate { $0.transactions.isEmpty }) == "transactions.@count == 0")
        #expect(
            try format(#Predicate { $0.transactions.contains { $0.amount > 100 } })
                == "SUBQUERY(transactions, $v1, $v1.amount > 100.0).@count > 0")
        #expect(
            try format(#Predicate { $0.transactions.allSatisfy { $0.amount < 100 } })
                == "SUBQUERY(transactions, $v1, NOT $v1.amount < 100.0).@count == 0")
        #expect(
            try format(#Predicate { $0.transactions.filter { $0.amount > 10 }.count == 2 })
                == "SUBQUERY(transactions, $v1, $v1.amount > 10.0).@count == 2")
    }

    @Test func whatHasNoCounterpartIsRefusedWithTheReason() throws {
        let refused: [(Predicate<Transaction>, String)] = [
            (#Predicate { $0.isLarge }, "is not an @Attribute or @Relationship property"),
            (#Predicate { $0.doubledAmount > 10 }, "is not an @Attribute"),
            (#Predicate { ($0.note?.count ?? 0) > 1 }, "is not an @Attribute"),
            (#Predicate { $0.category!.name == "Food" }, "PredicateExpressions.ForcedUnwrap"),
        ]
        for (predicate, reason) in refused {
            #expect(FetchPredicate(predicate) == nil)
            let error = #expect(throws: ObjectGraphError.self) {
                try FetchPredicate(translating: predicate)
            }
            #expect(error?.reason == .predicateInvalid)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("FetchRequest.swiftPredicate") == true)
        }
    }

    @Test func aComputedPropertyReturningWhatItReadsUnchangedMeansThatPath() throws {
        #expect(try format(#Predicate { $0.sameAmount > 10 }) == "amount > 10.0")
        #expect(
            try format(#Predicate { $0.categoryName == "Food" }) == #"category.name == "Food""#)
    }

    @Test func sortDescriptorsBecomeKeys() throws {
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Transaction.amount, order: .reverse))
                == FetchSortDescriptor(key: "amount", ascending: false))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Transaction.note))
                == FetchSortDescriptor(key: "note"))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Transaction.category?.name))
                == FetchSortDescriptor(key: "category.name"))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Category.name, comparator: .lexical))
                == FetchSortDescriptor(key: "name"))
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchSortDescriptor(SortDescriptor(\Transaction.doubledAmount))
        }
        #expect(error?.message.contains("FetchRequest.swiftSortDescriptors") == true)
    }

    @Test func inheritedAndRenamedPropertiesUseTheModelsKeys() throws {
        let predicate = #Predicate<Volume> {
            $0.title == "Dune" && $0.pages > 300 && $0.shelf != nil
        }
        let translated = try FetchPredicate(translating: predicate)
        #expect(translated.description == #"title == "Dune" AND pages > 300 AND shelf_code != nil"#)
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "LibraryItem", managedObjectClass: LibraryItem.self, isAbstract: true,
                properties: [AttributeDescription(name: "title", type: .string)]),
            EntityDescription(
                name: "Volume", managedObjectClass: Volume.self, superentityName: "LibraryItem",
                properties: [
                    AttributeDescription(name: "pages", type: .integer32, defaultValue: 0),
                    AttributeDescription(name: "shelf_code", type: .string),
                ]),
        ])
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue,
            coordinator: PersistentStoreCoordinator(managedObjectModel: model))
        try context.persistentStoreCoordinator?.addPersistentStore(
            with: PersistentStoreDescription())
        let found = try context.performAndWait { () throws -> [String?] in
            for (title, pages, shelf) in [
                ("Dune", 412, "S1"), ("Dune", 120, "S2"), ("Emma", 500, nil),
            ] {
                let v = Volume(context: context)
                v.title = title
                v.pages = pages
                v.shelf = shelf
            }
            try context.save()
            let request = FetchRequest<Volume>(entityName: "Volume")
            request.predicate = translated
            return try context.fetch(request).map(\.shelf)
        }
        #expect(found == ["S1"])
    }
}
