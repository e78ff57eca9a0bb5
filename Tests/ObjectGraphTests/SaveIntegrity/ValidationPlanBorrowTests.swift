import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// An object whose hook, asked about `first`, validates every object in `others` (each
    /// of another entity, so the save makes their plans while this object's plan is in use).
    final class Hub: ManagedObject {
        @Attribute var first: String?
        @Attribute var last: String?
        /// The objects the hook validates (set by the test).
        var others: [ManagedObject] = []
        /// The keys the hook was asked about, in order.
        var hookKeys: [String] = []

        override func validate(_ value: Any?, forKey key: String) throws {
            hookKeys.append(key)
            if key == "first" { for other in others { try other.validateForInsert() } }
            try super.validate(value, forKey: key)
        }
    }

    /// `Hub` (`first` optional, `last` required) and `leaves` entities `Leaf0`… of plain
    /// objects with a required `name`.
    static func hubAndLeaves(_ leaves: Int) throws -> ManagedObjectModel {
        let hub = E(
            name: "Hub", managedObjectClass: Hub.self,
            properties: [
                A(name: "first", type: .string), A(name: "last", type: .string, isOptional: false),
            ])
        let others = (0..<leaves).map { i in
            E(name: "Leaf\(i)", properties: [A(name: "name", type: .string, isOptional: false)])
        }
        return try ManagedObjectModel(entities: [hub] + others)
    }
}

extension SaveIntegrity {
    /// The save's validation plan for an object is borrowed, not retained, while the object is
    /// validated: its hook may make the save find or make other plans meanwhile.
    @Suite struct ValidationPlanBorrowTests {
        typealias Hub = IntegrityModels.Hub

        /// A hook that validates objects of eight other entities (eight plans made, the list of
        /// plans reallocated, while the hub's plan is in use): the hub's properties after the
        /// hooked one are still validated by its plan (its missing `last` fails the save with
        /// 1570, its hook asked about `last` too), and the other objects pass.
        @Test(arguments: StoreKind.all)
        func aHookThatMakesOtherPlansLeavesItsObjectsPlanInUse(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.hubAndLeaves(8), on: kind)
            let context = stack.context()
            try context.performAndWait { () throws in
                let hub = Hub(context: context)
                hub.first = "a"
                hub.others = (0..<8).map { i in
                    let leaf = context.insertNewObject(forEntityName: "Leaf\(i)")
                    leaf.setValue("leaf \(i)", forKey: "name")
                    return leaf
                }
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMissingMandatoryPropertyError)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "last")
                #expect(hub.hookKeys == ["first"])
                hub.hookKeys = []
                hub.last = "z"
                try context.save()
                #expect(hub.hookKeys == ["first", "last"])
                #expect(!hub.isInserted && hub.others.allSatisfy { !$0.isInserted })
            }
        }
    }
}
