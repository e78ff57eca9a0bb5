import Foundation
import Testing

@testable import ObjectGraph

/// A context that lets go of many objects at once (a reset, or the context freed) gives the
/// C heap's free memory back to the system (`HeapGiveBack`), only when its registry's table
/// was large: counted through an injected give-back, never by measuring memory.
@Suite struct HeapGiveBackTests {
    /// Counts the give-backs a context asked for.
    final class Calls: @unchecked Sendable {
        // Sendable: `value` is read and written under `lock`.
        private let lock = NSLock()
        private var value = 0
        /// Counts one call.
        func add() { lock.withLock { value += 1 } }
        /// The calls so far.
        var count: Int { lock.withLock { value } }
    }

    /// A stack on a fresh store of `kind` holding `count` employees.
    private static func staff(_ kind: StoreKind, count: Int) throws -> Stack {
        let stack = try Stack(try StaffModel.make(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            for i in 0..<count { StaffModel.employee("e\(i)", salary: i, in: context) }
            try context.save()
            context.reset()
        }
        return stack
    }

    /// A context of `stack` whose give-backs `calls` counts, above `threshold` table slots.
    private static func context(_ stack: Stack, threshold: Int, _ calls: Calls)
        -> ManagedObjectContext
    {
        let context = stack.context()
        context.performAndWait {
            context.registry.giveBack = HeapGiveBack(threshold: threshold) { calls.add() }
        }
        return context
    }

    /// Fetches every employee into `context` and returns its registry's table size.
    private static func fetchAll(_ context: ManagedObjectContext) throws -> Int {
        try context.performAndWait {
            let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "Employee"))
            for e in all { _ = e.value(forKey: "name") }
            return context.registry.tableSlots
        }
    }

    @Test(arguments: StoreKind.all, [10, 400])
    func aResetGivesMemoryBackOnlyAfterALargeTable(_ kind: StoreKind, employees: Int) throws {
        let stack = try Self.staff(kind, count: employees)
        let calls = Calls()
        let context = Self.context(stack, threshold: 512, calls)
        let slots = try Self.fetchAll(context)
        #expect(calls.count == 0)
        context.performAndWait { context.reset() }
        #expect(calls.count == (slots >= 512 ? 1 : 0))
        #expect((slots >= 512) == (employees == 400))
        // The store and a new fetch are as before.
        #expect(try stack.rows("Employee").count == employees)
        let again = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Employee")).count
        }
        #expect(again == employees)
    }

    @Test(arguments: StoreKind.all, [10, 400])
    func aFreedContextGivesMemoryBackOnlyAfterALargeTable(_ kind: StoreKind, employees: Int)
        throws
    {
        let stack = try Self.staff(kind, count: employees)
        let calls = Calls()
        var slots = 0
        do {
            let context = Self.context(stack, threshold: 512, calls)
            slots = try Self.fetchAll(context)
            #expect(calls.count == 0)
        }
        #expect(calls.count == (slots >= 512 ? 1 : 0))
        #expect((slots >= 512) == (employees == 400))
    }

    @Test(arguments: StoreKind.all)
    func theSystemGiveBackLeavesObjectsAndStoreAsTheyWere(_ kind: StoreKind) throws {
        #expect(HeapGiveBack.system.threshold == 65_536)
        let stack = try Self.staff(kind, count: 50)
        let context = stack.context()
        let kept = stack.context()
        try context.performAndWait {
            // The real trim, at every reset of this context.
            context.registry.giveBack = HeapGiveBack(threshold: 0) { SystemHeap.trim() }
            _ = try Self.fetchAll(context)
            context.reset()
        }
        // Another context's objects, a fresh fetch and the store are untouched.
        let names = try kept.performAndWait {
            let r = FetchRequest<ManagedObject>(entityName: "Employee")
            r.sortDescriptors = [FetchSortDescriptor(key: "salary")]
            let all = try kept.fetch(r)
            SystemHeap.trim()
            return all.map { $0.value(forKey: "name") as? String }
        }
        #expect(names == (0..<50).map { "e\($0)" })
        #expect(try stack.rows("Employee").count == 50)
        #expect(try Self.fetchAll(context) > 0)
    }
}
