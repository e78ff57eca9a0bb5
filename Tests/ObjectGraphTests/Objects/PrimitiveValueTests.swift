import Foundation
import Testing

@testable import ObjectGraph

/// An employee whose `name` and `department` have custom accessors written the Core Data way
/// (will/did-change around primitive values), which sets its creation date in
/// `awakeFromInsert()` and its transient `nickname` in `awakeFromFetch()` with primitives.
final class PrimEmployee: ManagedObject {
    // Apple's awakeFromInsert() documentation, ported with renames only:
    // https://developer.apple.com/documentation/coredata/nsmanagedobject/awakefrominsert()
    // ("If you want to set attribute values in an implementation of this method, you should
    // typically use primitive accessor methods ... the new values are treated as baseline
    // values rather than being registered as undoable changes").
    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(timeIntervalSince1970: 1_000), forKey: "creationDate")
    }

    // awakeFromFetch(): "change processing is explicitly disabled around this method so that
    // you can use public setters to establish transient values ... without dirtying the
    // object"; a primitive set does not dirty it either.
    override func awakeFromFetch() {
        super.awakeFromFetch()
        setPrimitiveValue("fetched", forKey: "nickname")
    }

    var name: String? {
        get {
            willAccessValue(forKey: "name")
            defer { didAccessValue(forKey: "name") }
            return primitiveValue(forKey: "name") as? String
        }
        set {
            willChangeValue(forKey: "name")
            setPrimitiveValue(newValue, forKey: "name")
            didChangeValue(forKey: "name")
        }
    }

    var department: ManagedObject? {
        get {
            willAccessValue(forKey: "department")
            defer { didAccessValue(forKey: "department") }
            return primitiveValue(forKey: "department") as? ManagedObject
        }
        set {
            willChangeValue(forKey: "department")
            setPrimitiveValue(newValue, forKey: "department")
            didChangeValue(forKey: "department")
        }
    }
}

/// A department with Core Data's custom to-many accessors (the set-mutation form).
final class PrimDepartment: ManagedObject {
    func addToEmployees(_ value: ManagedObject) {
        let changed: Set<AnyHashable> = [value]
        willChangeValue(forKey: "employees", withSetMutation: .union, using: changed)
        var members = primitiveValue(forKey: "employees") as! Set<ManagedObject>
        members.insert(value)
        setPrimitiveValue(members, forKey: "employees")
        didChangeValue(forKey: "employees", withSetMutation: .union, using: changed)
    }

    func removeFromEmployees(_ value: ManagedObject) {
        let changed: Set<AnyHashable> = [value]
        willChangeValue(forKey: "employees", withSetMutation: .minus, using: changed)
        var members = primitiveValue(forKey: "employees") as! Set<ManagedObject>
        members.remove(value)
        setPrimitiveValue(members, forKey: "employees")
        didChangeValue(forKey: "employees", withSetMutation: .minus, using: changed)
    }
}

/// Core Data's primitive values and change notifications on `ManagedObject`, each behaviour
/// decided from Apple's documentation (cited per test) or, where it is silent, from what
/// developers observed; on both stores wherever a store is involved.
@Suite struct PrimitiveValueTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Employee", managedObjectClass: PrimEmployee.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "salary", type: .integer32),
                    AttributeDescription(name: "creationDate", type: .date),
                    AttributeDescription(name: "nickname", type: .string, isTransient: true),
                    RelationshipDescription(
                        name: "department", destination: "Department", inverse: "employees"),
                    RelationshipDescription(name: "badge", destination: "Badge", inverse: "holder"),
                    RelationshipDescription(
                        name: "projects", destination: "Project", inverse: "members",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Project",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "members", destination: "Employee", inverse: "projects",
                        isToMany: true, isOrdered: true),
                ]),
            EntityDescription(
                name: "Department", managedObjectClass: PrimDepartment.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "employees", destination: "Employee", inverse: "department",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Badge",
                properties: [
                    AttributeDescription(name: "code", type: .string),
                    RelationshipDescription(
                        name: "holder", destination: "Employee", inverse: "badge"),
                ]),
        ])
    }

    /// A stack of `kind` holding the department "R&D" with alpha (salary 10) and bravo (20),
    /// and the badge "B1" held by alpha, saved.
    static func savedStaff(_ kind: StoreKind) throws -> Stack {
        let stack = try Stack(try model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let d = context.insertNewObject(forEntityName: "Department")
            d.setValue("R&D", forKey: "name")
            for (name, salary) in [("alpha", 10), ("bravo", 20)] {
                let e = context.insertNewObject(forEntityName: "Employee")
                e.setValue(name, forKey: "name")
                e.setValue(salary, forKey: "salary")
                e.setValue(d, forKey: "department")
                if name == "alpha" {
                    let b = context.insertNewObject(forEntityName: "Badge")
                    b.setValue("B1", forKey: "code")
                    b.setValue(e, forKey: "holder")
                }
            }
            try context.save()
        }
        return stack
    }

    /// Runs `body` on a new context of ``savedStaff(_:)``'s stack of `kind`, on its queue, and
    /// returns the stack (to read what the store holds afterwards).
    @discardableResult
    static func inSavedStaff(
        _ kind: StoreKind, _ body: (ManagedObjectContext) throws -> Void
    ) throws -> Stack {
        let stack = try savedStaff(kind)
        let context = stack.context()
        try context.performAndWait { () throws in try body(context) }
        return stack
    }

    static func fetch(_ entity: String, _ context: ManagedObjectContext) throws -> [ManagedObject] {
        let r = FetchRequest<ManagedObject>(entityName: entity)
        r.sortDescriptors = [FetchSortDescriptor(key: entity == "Badge" ? "code" : "name")]
        return try context.fetch(r)
    }

    /// The value of `key` of every object of `entity` (in name order), read in a new context
    /// of a reopened stack (what the store holds); a related object is given by its name.
    static func stored(_ stack: Stack, _ entity: String, _ key: String) throws -> [Any?] {
        let reopened = try stack.reopen()
        let context = reopened.context()
        return try context.performAndWait {
            try fetch(entity, context).map { object -> Any? in
                let value = object.value(forKey: key)
                if let related = value as? ManagedObject { return related.value(forKey: "name") }
                return value
            }
        }
    }

    // MARK: primitiveValue(forKey:)

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/primitivevalue(forkey:):
    // "The value of the property specified by key"; to-one and to-many as value(forKey:) gives
    // them (Core Data: the object, a set of objects). The fault question is not documented:
    // decided to fire it (see the method's comment).
    @Test(arguments: StoreKind.all)
    func primitiveValueReadsEveryKindOfPropertyAndFiresTheFault(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            let department = try #require(try Self.fetch("Department", context).first)
            context.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault)
            #expect(alpha.primitiveValue(forKey: "name") as? String == "alpha")
            #expect(!alpha.isFault)
            #expect(alpha.primitiveValue(forKey: "salary") as? Int32 == 10)
            #expect(
                alpha.primitiveValue(forKey: "creationDate") as? Date
                    == Date(timeIntervalSince1970: 1_000))
            #expect(try Self.fetch("Employee", context)[1].primitiveValue(forKey: "badge") == nil)
            #expect(alpha.primitiveValue(forKey: "department") as? ManagedObject === department)
            let members = try #require(
                department.primitiveValue(forKey: "employees") as? Set<ManagedObject>)
            #expect(Set(members.map { $0.value(forKey: "name") as? String }) == ["alpha", "bravo"])
            // The transient value awakeFromFetch() set.
            #expect(alpha.primitiveValue(forKey: "nickname") as? String == "fetched")
            #expect(!alpha.hasChanges)
        }
    }

    // Project convention for a wrong key (as value(forKey:)): a trap naming entity and key.
    // Core Data: "Primitive accessor methods are only supported on modeled properties."
    @Test func primitiveValueOfAnUnknownKeyTrapsNamingEntityAndKey() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let stack = try Stack(try PrimitiveValueTests.model(), on: .inMemory)
                let context = stack.context()
                context.performAndWait {
                    _ = context.insertNewObject(forEntityName: "Employee")
                        .primitiveValue(forKey: "title")
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains("primitiveValue(forKey:): entity Employee has no property 'title'"))
    }

    @Test func setPrimitiveValueOfTheWrongTypeTrapsNamingTheKey() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let stack = try Stack(try PrimitiveValueTests.model(), on: .inMemory)
                let context = stack.context()
                context.performAndWait {
                    let e = context.insertNewObject(forEntityName: "Employee")
                    e.setPrimitiveValue(
                        context.insertNewObject(forEntityName: "Employee"), forKey: "department")
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Employee.department expects Department objects; got a Employee"))
    }

    // MARK: setPrimitiveValue(_:forKey:) alone

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/setprimitivevalue(_:forkey:):
    // "This method does not invoke the change notification methods". Observed against Apple:
    // no changedValues() (miolabs/MIOCoreData AppleParityTests
    // testSetPrimitiveValueIsNotTracked_DEVIATION), hasChanges stays false
    // (lionheart/openradar-mirror#12997, rdar 15516199), and the value is not saved
    // (rentzsch/mogenerator#366, mattrighetti/Ulry#12; willSave(): "Core Data will not notice
    // the change you make").
    @Test(arguments: StoreKind.all)
    func aPrimitiveSetOnAFetchedObjectIsNotAChangeAndIsNotSaved(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let context = stack.context()
        let recorder = ChangeRecorder(context)
        try context.performAndWait { () throws in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setPrimitiveValue("zed", forKey: "name")
            #expect(alpha.value(forKey: "name") as? String == "zed")
            #expect(!alpha.hasChanges && !alpha.isUpdated && !context.hasChanges)
            #expect(alpha.changedValues().isEmpty)
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
            context.processPendingChanges()
            try context.save()
        }
        #expect(recorder.all.isEmpty)
        #expect(try Self.stored(stack, "Employee", "name") as? [String] == ["alpha", "bravo"])
    }

    // Same page: the method "does not invoke the change notification methods", from which
    // inverse relationships are kept in step; the page describes the receiver's side only
    // ("relates the object specified by value to the receiver, unrelating the previously
    // related object if there was one").
    @Test(arguments: StoreKind.all)
    func aPrimitiveSetOfAToOneLeavesTheInverseAlone(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            let rnd = try Self.fetch("Department", context)[0]
            let ops = context.insertNewObject(forEntityName: "Department")
            alpha.setPrimitiveValue(ops, forKey: "department")
            #expect(alpha.value(forKey: "department") as? ManagedObject === ops)
            #expect((ops.value(forKey: "employees") as? Set<ManagedObject>)?.isEmpty == true)
            #expect(
                (rnd.value(forKey: "employees") as? Set<ManagedObject>)?.contains(alpha) == true)
            #expect(!alpha.hasChanges)
        }
    }

    // awakeFromInsert() (quoted on PrimEmployee): the value is a baseline, saved with the
    // insert, and not a change of its own.
    @Test(arguments: StoreKind.all)
    func aPrimitiveSetInAwakeFromInsertIsSavedWithTheInsertAsABaseline(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let e = PrimEmployee(context: context)
            #expect(e.value(forKey: "creationDate") as? Date == Date(timeIntervalSince1970: 1_000))
            #expect(e.isInserted && e.hasChanges)
            #expect(e.changedValues()["creationDate"] == nil)
            e.name = "new"
            #expect(e.changedValues()["name"] as? String == "new")
            try context.save()
        }
        #expect(
            try Self.stored(stack, "Employee", "creationDate") as? [Date]
                == [Date(timeIntervalSince1970: 1_000)])
    }

    // awakeFromFetch() (quoted on PrimEmployee): setting values there does not dirty the object.
    @Test(arguments: StoreKind.all)
    func aPrimitiveSetInAwakeFromFetchIsNotAChange(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            #expect(alpha.value(forKey: "nickname") as? String == "fetched")
            #expect(!alpha.hasChanges && !context.hasChanges)
        }
    }

    // MARK: will/didChangeValue(forKey:) around a primitive set

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/didaccessvalue(forkey:):
    // "each write access must be wrapped in the willChangeValueForKey:/didChangeValueForKey:
    // method pair"; the pair makes the write a change exactly as the setter's.
    @Test(arguments: StoreKind.all)
    func aCustomSetterChangesTheObjectAsTheGeneratedOneWould(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let context = stack.context()
        let recorder = ChangeRecorder(context)
        try context.performAndWait { () throws in
            let alpha = try #require(try Self.fetch("Employee", context)[0] as? PrimEmployee)
            alpha.name = "alice"
            #expect(alpha.name == "alice")
            #expect(alpha.hasChanges && alpha.isUpdated && context.hasChanges)
            #expect(alpha.changedValues().keys.sorted() == ["name"])
            #expect(alpha.changedValues()["name"] as? String == "alice")
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
            context.processPendingChanges()
            #expect(recorder.all.last?.set(NSUpdatedObjectsKey) == [alpha as ManagedObject])
            try context.save()
            #expect(!alpha.hasChanges)
        }
        #expect(try Self.stored(stack, "Employee", "name") as? [String] == ["alice", "bravo"])
    }

    // The same page: the pair is how Core Data maintains inverse relationships.
    @Test(arguments: StoreKind.all)
    func aCustomToOneSetterKeepsTheInverseInStep(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let alpha = try #require(try Self.fetch("Employee", context)[0] as? PrimEmployee)
            let rnd = try Self.fetch("Department", context)[0]
            let ops = context.insertNewObject(forEntityName: "Department")
            ops.setValue("Ops", forKey: "name")
            alpha.department = ops
            #expect((ops.value(forKey: "employees") as? Set<ManagedObject>) == [alpha])
            #expect(
                (rnd.value(forKey: "employees") as? Set<ManagedObject>)?.contains(alpha) == false)
            #expect(rnd.hasChanges && alpha.hasChanges)
            #expect(alpha.changedValues()["department"] as? ManagedObject === ops)
            try context.save()
        }
        #expect(
            try Self.stored(stack, "Employee", "department").map { $0 as? String } == [
                "Ops", "R&D",
            ])
    }

    // One-to-one: the new destination leaves its previous owner, as the setter makes it.
    @Test(arguments: StoreKind.all)
    func aPairedOneToOneChangeTakesTheDestinationFromItsPreviousOwner(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let staff = try Self.fetch("Employee", context)
            let (alpha, bravo) = (staff[0], staff[1])
            let badge = try Self.fetch("Badge", context)[0]
            bravo.willChangeValue(forKey: "badge")
            bravo.setPrimitiveValue(badge, forKey: "badge")
            bravo.didChangeValue(forKey: "badge")
            #expect(badge.value(forKey: "holder") as? ManagedObject === bravo)
            #expect(alpha.value(forKey: "badge") == nil)
            #expect(alpha.hasChanges && badge.hasChanges && bravo.hasChanges)
            try context.save()
        }
        #expect(
            try Self.stored(stack, "Badge", "holder").map { $0 as? String } == ["bravo"])
    }

    // willChangeValue(forKey:withSetMutation:using:) / didChange…: Core Data's custom to-many
    // accessors (Core Data Programming Guide, "Managed Object Accessor Methods").
    @Test(arguments: StoreKind.all)
    func setMutationAccessorsChangeTheMembersAndTheirInverse(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let staff = try Self.fetch("Employee", context)
            let rnd = try #require(try Self.fetch("Department", context)[0] as? PrimDepartment)
            let ops = PrimDepartment(context: context)
            ops.setValue("Ops", forKey: "name")
            ops.addToEmployees(staff[1])
            #expect(staff[1].value(forKey: "department") as? ManagedObject === ops)
            #expect((rnd.value(forKey: "employees") as? Set<ManagedObject>) == [staff[0]])
            rnd.removeFromEmployees(staff[0])
            #expect(staff[0].value(forKey: "department") == nil)
            #expect(rnd.changedValues()["employees"] as? Set<ManagedObject> == [])
            try context.save()
        }
        #expect(
            try Self.stored(stack, "Employee", "department").map { $0 as? String } == [nil, "Ops"])
    }

    @Test func theSetMutationFormTrapsForAKeyThatIsNotToMany() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let stack = try Stack(try PrimitiveValueTests.model(), on: .inMemory)
                let context = stack.context()
                context.performAndWait {
                    context.insertNewObject(forEntityName: "Employee").willChangeValue(
                        forKey: "name", withSetMutation: .union, using: [])
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Employee.name is not a to-many relationship"))
    }

    // An equal value through the pair changes nothing, as an equal value given to a setter.
    @Test func anUnchangedValueBetweenTheCallsChangesNothing() throws {
        try Self.inSavedStaff(.inMemory) { context in
            let alpha = try #require(try Self.fetch("Employee", context)[0] as? PrimEmployee)
            alpha.name = "alpha"
            alpha.department = alpha.department
            #expect(!alpha.hasChanges && !context.hasChanges)
        }
    }

    // Decided (KVO nests will/did pairs; Core Data does not document unbalanced calls):
    // nested pairs for one key make one change; a did without a will marks the property
    // changed; an unmodeled key is ignored (contextShouldIgnoreUnmodeledPropertyChanges,
    // https://developer.apple.com/documentation/coredata/nsmanagedobject/contextshouldignoreunmodeledpropertychanges,
    // true by default).
    @Test(arguments: StoreKind.all)
    func nestedUnbalancedAndUnmodeledCallsAreDecidedAsDocumented(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let staff = try Self.fetch("Employee", context)
            let (alpha, bravo) = (staff[0], staff[1])
            alpha.willChangeValue(forKey: "salary")
            alpha.willChangeValue(forKey: "salary")
            alpha.setPrimitiveValue(11, forKey: "salary")
            alpha.didChangeValue(forKey: "salary")
            alpha.didChangeValue(forKey: "salary")
            #expect(alpha.changedValues()["salary"] as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)

            bravo.setPrimitiveValue(21, forKey: "salary")
            bravo.didChangeValue(forKey: "salary")
            #expect(bravo.changedValues()["salary"] as? Int32 == 21)

            alpha.willChangeValue(forKey: "mood")
            alpha.didChangeValue(forKey: "mood")
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            try context.save()
        }
        #expect(try Self.stored(stack, "Employee", "salary") as? [Int32] == [11, 21])
    }

    // The project's undo covers setters (state compared at the end of each event): a paired
    // change is undone as a setter's is.
    @Test(arguments: StoreKind.all)
    func undoTakesBackAPairedChange(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            context.undoManager = ObjectGraphUndoManager()
            let alpha = try #require(try Self.fetch("Employee", context)[0] as? PrimEmployee)
            alpha.name = "alice"
            context.processPendingChanges()
            context.undo()
            #expect(alpha.name == "alpha")
            #expect(!alpha.hasChanges)
            context.redo()
            #expect(alpha.name == "alice")
            #expect(alpha.hasChanges)
        }
    }

    /// A fetched results controller's delegate that records each object change with the
    /// object's `changedValuesForCurrentEvent()` at that moment.
    final class EventDelegate: FetchedResultsControllerDelegate {
        var changes: [(type: FetchedResultsChangeType, old: [String: Any])] = []
        func controller(
            _ controller: FetchedResultsControllerBase, didChange anObject: Any,
            at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            let object = anObject as? ManagedObject
            changes.append((type, object?.changedValuesForCurrentEvent() ?? [:]))
        }
    }

    // A fetched results controller follows a paired change as a setter's, and not a bare
    // primitive set; inside its delegate, changedValuesForCurrentEvent() gives the old value
    // (pusher/pusher-platform-swift ChangeControllerTests, testShouldNotifyAboutMovedObject,
    // run against Core Data: "Aurelia" renamed "Abby" reports "Aurelia").
    @Test(arguments: StoreKind.all)
    func aFetchedResultsControllerFollowsPairedChangesWithTheirOldValues(_ kind: StoreKind)
        throws
    {
        let stack = try Self.savedStaff(kind)
        let context = stack.context()
        let request = FetchRequest<ManagedObject>(entityName: "Employee")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil,
            cacheName: nil)
        let delegate = EventDelegate()
        try context.performAndWait { () throws in
            controller.delegate = delegate
            try controller.performFetch()
            let alpha = try #require(controller.fetchedObjects?.first as? PrimEmployee)
            controller.fetchedObjects?.last?.setPrimitiveValue("able", forKey: "name")
            context.processPendingChanges()
            #expect(delegate.changes.isEmpty)
            alpha.name = "zed"
            context.processPendingChanges()
            #expect(delegate.changes.count == 1)
            #expect(delegate.changes.first?.type == .move)
            #expect(delegate.changes.first?.old["name"] as? String == "alpha")
            #expect(controller.fetchedObjects?.last === alpha)
        }
    }

    // MARK: willAccessValue(forKey:)

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/didaccessvalue(forkey:):
    // with willAccessValue(forKey:) "used to fire faults"; a nil key is the usual idiom.
    @Test(arguments: StoreKind.all)
    func willAccessValueFiresTheFault(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            context.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault)
            alpha.willAccessValue(forKey: nil)
            #expect(!alpha.isFault)
            alpha.didAccessValue(forKey: nil)
            context.refresh(alpha, mergeChanges: false)
            alpha.willAccessValue(forKey: "name")
            #expect(!alpha.isFault)
        }
    }

    // MARK: changedValuesForCurrentEvent()

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/1506472-changedvaluesforcurrentevent:
    // "keys are the names of persistent properties that have changed since the last posting
    // of NSManagedObjectContextObjectsDidChange, and whose values are the old value"; inside
    // the notification the event announced is the current one (observed in a fetched results
    // controller's delegate: pusher/pusher-platform-swift ChangeControllerTests,
    // testShouldNotifyAboutUpdatedObject, "Aaron" renamed "Abby" gives "Aaron").
    @Test(arguments: StoreKind.all)
    func changedValuesForCurrentEventGivesTheOldValuesOfTheEventsChanges(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let context = stack.context()
        final class Box: @unchecked Sendable { var seen: [[String: Any]] = [] }
        let box = Box()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { note in
            for o in (note.userInfo?[NSUpdatedObjectsKey] as? Set<ManagedObject>) ?? [] {
                box.seen.append(o.changedValuesForCurrentEvent())
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.performAndWait { () throws in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue("alice", forKey: "name")
            alpha.setValue("moody", forKey: "nickname")
            #expect(alpha.changedValuesForCurrentEvent().keys.sorted() == ["name"])
            #expect(alpha.changedValuesForCurrentEvent()["name"] as? String == "alpha")
            context.processPendingChanges()
            #expect(box.seen.count == 1 && box.seen.first?["name"] as? String == "alpha")
            // The event ended: nothing changed in the next one yet.
            #expect(alpha.changedValuesForCurrentEvent().isEmpty)
            #expect(alpha.changedValues()["name"] as? String == "alice")
            let ops = context.insertNewObject(forEntityName: "Department")
            alpha.setValue(12, forKey: "salary")
            alpha.setValue("ally", forKey: "name")
            alpha.setValue(ops, forKey: "department")
            let event = alpha.changedValuesForCurrentEvent()
            #expect(event.keys.sorted() == ["department", "name", "salary"])
            #expect(event["name"] as? String == "alice")
            #expect(event["salary"] as? Int32 == 10)
            #expect(
                (event["department"] as? ManagedObject)?.value(forKey: "name") as? String == "R&D")
            // An object inserted in this event compares with its entity's defaults.
            ops.setValue("Ops", forKey: "name")
            #expect(ops.changedValuesForCurrentEvent()["name"] is NSNull)
            try context.save()
            #expect(alpha.changedValuesForCurrentEvent().isEmpty)
            alpha.setValue(13, forKey: "salary")
            #expect(alpha.changedValuesForCurrentEvent().keys.sorted() == ["salary"])
            #expect(alpha.changedValuesForCurrentEvent()["salary"] as? Int32 == 12)
        }
    }

    // rollback() and reset() forget what the last notification left: after a rollback the
    // next event compares with the committed values again (the same page: "since the last
    // posting"; the rollback's own notification reports the object refreshed, not changed).
    @Test(arguments: StoreKind.all)
    func afterARollbackTheNextEventComparesWithTheCommittedValues(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue("alice", forKey: "name")
            context.processPendingChanges()
            context.rollback()
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            alpha.setValue("ally", forKey: "name")
            #expect(alpha.changedValuesForCurrentEvent()["name"] as? String == "alpha")
            context.processPendingChanges()
            context.reset()
            let fresh = try Self.fetch("Employee", context)[0]
            fresh.setValue("al", forKey: "name")
            #expect(fresh.changedValuesForCurrentEvent()["name"] as? String == "alpha")
        }
    }

    // What the last notification left holds its objects; rollback() and reset() let them go
    // (a rolled-back insert, and every object of a reset context, would otherwise stay alive
    // until the next save).
    @Test func rollbackAndResetLetGoOfTheObjectsTheLastNotificationLeft() throws {
        weak var inserted: ManagedObject?
        weak var fetched: ManagedObject?
        try Self.inSavedStaff(.inMemory) { context in
            do {
                let e = context.insertNewObject(forEntityName: "Employee")
                e.setValue("new", forKey: "name")
                context.processPendingChanges()
                inserted = e
            }
            context.rollback()
            #expect(inserted == nil)
            do {
                let alpha = try Self.fetch("Employee", context)[0]
                alpha.setValue("alice", forKey: "name")
                context.processPendingChanges()
                fetched = alpha
            }
            context.reset()
            #expect(fetched == nil)
        }
    }

    // A primitive set alone is no change of the event either; a paired one is.
    @Test func changedValuesForCurrentEventListsPairedChangesOnly() throws {
        try Self.inSavedStaff(.inMemory) { context in
            let alpha = try #require(try Self.fetch("Employee", context)[0] as? PrimEmployee)
            alpha.setPrimitiveValue(99, forKey: "salary")
            #expect(alpha.changedValuesForCurrentEvent().isEmpty)
            alpha.name = "alice"
            #expect(alpha.changedValuesForCurrentEvent().keys.sorted() == ["name"])
        }
    }

    // MARK: dictionaryWithValues(forKeys:)

    // NSObject's key-value coding method: values for the keys, nil as NSNull
    // (https://developer.apple.com/documentation/objectivec/nsobject/1411319-dictionarywithvalues).
    @Test(arguments: StoreKind.all)
    func dictionaryWithValuesGivesEachKeysValueAndNSNullForNil(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            let values = alpha.dictionaryWithValues(forKeys: [
                "name", "salary", "creationDate", "department",
            ])
            #expect(values.count == 4)
            #expect(values["name"] as? String == "alpha")
            #expect(values["salary"] as? Int32 == 10)
            #expect(values["creationDate"] as? Date == Date(timeIntervalSince1970: 1_000))
            #expect(
                (values["department"] as? ManagedObject)?.value(forKey: "name") as? String == "R&D")
            let bravo = try Self.fetch("Employee", context)[1]
            #expect(bravo.dictionaryWithValues(forKeys: ["badge"])["badge"] is NSNull)
        }
    }
}
