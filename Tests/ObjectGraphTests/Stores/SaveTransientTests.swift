import Foundation
import Testing

@testable import ObjectGraph

/// What a large save holds while it commits, made smaller without changing what is saved: a
/// patch of one value keeps it inline (`PatchValues`), the file store's per-patch writes are
/// kept as runs (`PatchWrites`), a one-store save's row hand-off reads the plan's own list of
/// updated objects, and an overlay's entry is 24 bytes. Each behaviour on both stores.
@Suite struct SaveTransientTests {
    /// A stack on a fresh store of `kind` holding the department "R&D" and six employees
    /// e0…e5 (salary 10, 20, …), the inserting context reset.
    private static func staff(_ kind: StoreKind) throws -> Stack {
        let stack = try Stack(try StaffModel.make(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let d = StaffModel.department("R&D", in: context)
            for i in 0..<6 {
                StaffModel.employee("e\(i)", salary: 10 * (i + 1), department: d, in: context)
            }
            try context.save()
            context.reset()
        }
        return stack
    }

    /// The employees of `context`, by name.
    private static func employees(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(r)
    }

    /// Each employee's name, salary and hire date as a fresh context of `stack` reads them.
    private static func stored(_ stack: Stack) throws -> [String] {
        let context = stack.context()
        return try context.performAndWait {
            try employees(context).map { e in
                let date = (e.value(forKey: "hireDate") as? Date)?.timeIntervalSince1970
                return "\(e.value(forKey: "name")!) \(e.value(forKey: "salary")!) \(date ?? -1)"
            }
        }
    }

    /// The ID of a saved employee of `stack`, for patches made by hand.
    private static func someEmployeeID(_ stack: Stack) throws -> ManagedObjectID {
        try #require(try stack.rows("Employee").first?.objectID)
    }

    @Test func aPatchOfOneValueIsEqualHashesAndReadsAsOneMadeFromAnArray() throws {
        let stack = try Self.staff(.inMemory)
        let id = try Self.someEmployeeID(stack)
        let value = StoreValue.attribute(.integer(5))
        let fromArray = StoreRowPatch(objectID: id, version: 2, slots: [1], values: [value])
        let inline = StoreRowPatch(objectID: id, version: 2, slots: [1], value: value)
        #expect(fromArray == inline)
        #expect(fromArray.hashValue == inline.hashValue)
        #expect(inline.values == [value])
        #expect(inline.valueCount == 1 && inline.value(atPosition: 0) == value)
        var changed = inline
        changed.slots = [0, 1]
        changed.values = [.attribute(.string("x")), value]
        #expect(changed.values == [.attribute(.string("x")), value])
        #expect(changed.valueCount == 2 && changed.value(atPosition: 0) == .attribute(.string("x")))
        #expect(changed != inline)
        changed.slots = [1]
        changed.values = [value]
        #expect(changed == inline && changed.hashValue == inline.hashValue)
        let empty = StoreRowPatch(objectID: id, version: 2, slots: [], values: [])
        #expect(empty.values.isEmpty && empty.valueCount == 0)
    }

    @Test func aPatchOfOneValueAppliesAndNamesItsChangedPropertyAsBefore() throws {
        let stack = try Self.staff(.inMemory)
        let old = try #require(try stack.rows("Employee").first)
        let patch = StoreRowPatch(
            objectID: old.objectID, version: old.version + 1, slots: [1],
            value: .attribute(.integer(99)))
        let row = patch.applied(to: old)
        #expect(row.values[1] == .attribute(.integer(99)))
        #expect(row.values[0] == old.values[0] && row.version == old.version + 1)
        #expect(patch.changedProperties(from: old) == ["salary"])
        #expect(patch.value(at: 1) == .attribute(.integer(99)) && patch.value(at: 0) == .notStored)
    }

    @Test(arguments: StoreKind.all)
    func aPatchWithMoreSlotsThanValuesIsRefusedAndChangesNothing(_ kind: StoreKind) throws {
        let stack = try Self.staff(kind)
        let before = try stack.allRows()
        let row = try #require(try stack.rows("Employee").first)
        for values: [StoreValue] in [[.attribute(.integer(1))], []] {
            let patch = StoreRowPatch(
                objectID: row.objectID, version: row.version + 1, slots: [0, 1], values: values)
            #expect(throws: ObjectGraphError.self) {
                try stack.store.commit(StoreChangeSet(patched: [patch], timestamp: Date()))
            }
        }
        #expect(try stack.allRows() == before)
    }

    @Test func patchWritesKeepRunsAndAnswerEachPatch() throws {
        let stack = try Self.staff(.inMemory)
        let row = try #require(try stack.rows("Employee").first)
        let a = [1]
        let b = [0, 2]
        var writes = PatchWrites()
        #expect(writes.isEmpty)
        let sequence: [PatchWrite] = [
            PatchWrite(changed: a, complete: nil), PatchWrite(changed: a, complete: nil),
            PatchWrite(changed: [1], complete: nil), PatchWrite(changed: b, complete: nil),
            PatchWrite(changed: b, complete: row), PatchWrite(changed: b, complete: row),
            PatchWrite(changed: b, complete: nil), PatchWrite(changed: [], complete: nil),
        ]
        for write in sequence { writes.append(write) }
        #expect(writes.count == sequence.count)
        for (i, write) in sequence.enumerated() {
            #expect(writes[i].changed == write.changed, "patch \(i)")
            #expect(writes[i].complete == write.complete, "patch \(i)")
        }
        #expect(Array(writes.map(\.changed)) == sequence.map(\.changed))
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfPatchesOfDifferentSlotsSavesEachObjectsValues(_ kind: StoreKind) throws {
        let stack = try Self.staff(kind)
        let date = Date(timeIntervalSince1970: 86_400)
        let context = stack.context()
        try context.performAndWait {
            let all = try Self.employees(context)
            all[0].setValue(11, forKey: "salary")
            all[1].setValue("e1b", forKey: "name")
            all[2].setValue(31, forKey: "salary")
            // Three of four stored slots: written complete by the file store.
            all[3].setValue("e3b", forKey: "name")
            all[3].setValue(41, forKey: "salary")
            all[3].setValue(date, forKey: "hireDate")
            all[4].setValue(51, forKey: "salary")
            all[5].setValue(date, forKey: "hireDate")
            try context.save()
            #expect(!context.hasChanges)
            #expect(all.map { $0.value(forKey: "salary") as? Int32 } == [11, 20, 31, 41, 51, 60])
        }
        let expected = [
            "e0 11 -1.0", "e1b 20 -1.0", "e2 31 -1.0", "e3b 41 86400.0", "e4 51 -1.0",
            "e5 60 86400.0",
        ].sorted()
        #expect(try Self.stored(stack).sorted() == expected)
        #expect(try Self.stored(try stack.reopen()).sorted() == expected)
    }

    @Test(arguments: StoreKind.all)
    func aOneStoreSaveHandsOffTheRowsOfObjectsWithOverlaysOnly(_ kind: StoreKind) throws {
        let stack = try Self.staff(kind)
        let context = stack.context()
        try context.performAndWait {
            let all = try Self.employees(context)
            for e in all { _ = e.value(forKey: "name") }
            // e1 and e3 converted into slots before their writes; the others keep their rows.
            all[1].materialiseRow()
            all[3].materialiseRow()
            for (i, e) in all.enumerated() { e.setValue(100 + i, forKey: "salary") }
            #expect(all.map(\.hasRowOverlay) == [true, false, true, false, true, true])
            try context.save()
            for (i, e) in all.enumerated() {
                #expect(e.value(forKey: "salary") as? Int32 == Int32(100 + i))
                #expect(!e.hasRowOverlay && !e.hasChanges)
                let kept = e.rowValues?.withUnsafeBufferPointer { $0.baseAddress }
                let stored = try stack.baseStore.row(for: e.objectID)?.values
                    .withUnsafeBufferPointer { $0.baseAddress }
                // An object with an overlay holds the store's own patched row.
                #expect((kept != nil && kept == stored) == [0, 2, 4, 5].contains(i), "e\(i)")
            }
        }
    }

    @Test func anOverlayEntryIs24Bytes() {
        #expect(MemoryLayout<RowOverlay.Entry>.stride == 24)
        let entry = RowOverlay.Entry(slot: RowOverlay.maximumSlot, value: .integer(1))
        #expect(entry.slot == 65_535)
    }
}
