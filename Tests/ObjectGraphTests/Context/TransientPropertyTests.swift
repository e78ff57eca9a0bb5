import Foundation
import ObjectGraph
import Testing

/// Transient attributes and relationships: kept and tracked in memory, never stored.
/// Scenarios after FreeCoreData's `Tests/NSTransientRelationshipTests.m`, whose assertions its
/// CI checks against Apple's Core Data.
@Suite struct TransientPropertyTests {
    /// `Note(text, cachedSummary transient, tags transient to-many)` and `Tag(label, owner
    /// transient to-one)`.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "text", type: .string),
                    AttributeDescription(name: "cachedSummary", type: .string, isTransient: true),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "owner", isToMany: true,
                        isTransient: true),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "label", type: .string),
                    RelationshipDescription(
                        name: "owner", destination: "Note", inverse: "tags", isTransient: true),
                ]),
        ])
    }

    /// A note with text "body", summary "two colors" and tags red and blue, saved.
    static func savedNote(_ context: ManagedObjectContext) throws -> ManagedObject {
        try context.performAndWait {
            let note = context.insertNewObject(forEntityName: "Note")
            note.setValue("body", forKey: "text")
            note.setValue("two colors", forKey: "cachedSummary")
            for label in ["red", "blue"] {
                let tag = context.insertNewObject(forEntityName: "Tag")
                tag.setValue(label, forKey: "label")
                note.add(tag, toRelationship: "tags")
            }
            try context.save()
            return note
        }
    }

    /// Sets the note's text to "changed elsewhere" in `other` and saves it.
    static func changeText(of id: ManagedObjectID, in other: ManagedObjectContext) throws {
        try other.performAndWait {
            other.object(with: id).setValue("changed elsewhere", forKey: "text")
            try other.save()
        }
    }

    static func tagCount(_ note: ManagedObject) -> Int {
        (note.value(forKey: "tags") as? Set<ManagedObject>)?.count ?? -1
    }

    // "Transient properties are not saved to the persistent store" (NSPropertyDescription.
    // isTransient documentation); testTransientRelationshipsAreNotPersisted.
    @Test(arguments: StoreKind.all)
    func transientPropertiesAreNeverWrittenToTheStore(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let context = stack.context()
        let note = try Self.savedNote(context)
        context.performAndWait {
            #expect(Self.tagCount(note) == 2, "a transient relationship keeps its value in memory")
            #expect(note.value(forKey: "cachedSummary") as? String == "two colors")
        }
        let entities = stack.model.entitiesByName
        let summary = entities["Note"]!.propertiesByName["cachedSummary"]!.index
        let tags = entities["Note"]!.propertiesByName["tags"]!.index
        let owner = entities["Tag"]!.propertiesByName["owner"]!.index
        func checkRows(_ stack: Stack) throws {
            let notes = try stack.rows("Note")
            let storedTags = try stack.rows("Tag")
            #expect(notes.count == 1 && storedTags.count == 2, "the objects are stored")
            #expect(notes.allSatisfy { $0.values[summary] == .notStored })
            #expect(notes.allSatisfy { $0.values[tags] == .notStored })
            #expect(storedTags.allSatisfy { $0.values[owner] == .notStored })
            let relationship = entities["Note"]!.relationshipsByName["tags"]!
            #expect(try stack.store.relatedObjectIDs(relationship, of: notes[0].objectID) == [])
        }
        try checkRows(stack)
        let reopened = try stack.reopen()
        try checkRows(reopened)
        let fresh = reopened.context()
        try fresh.performAndWait {
            let note = try #require(
                try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Note")).first)
            let tag = try #require(
                try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).first)
            #expect(Self.tagCount(note) == 0)
            #expect(tag.value(forKey: "owner") == nil)
            #expect(note.value(forKey: "cachedSummary") == nil)
            #expect(note.value(forKey: "text") as? String == "body")
        }
    }

    // Apple-checked (testTransientChangesCountAsChanges): editing only a transient dirties the
    // object and the context, changedValues() leaves it out, and the save cleans it. Apple's
    // changedValues() and committedValues(forKeys:) report persistent properties only
    // (NSManagedObject documentation). isUpdated follows hasChanges; hasPersistentChangedValues
    // tells the two apart.
    @Test(arguments: StoreKind.all)
    func editingOnlyATransientDirtiesTheObjectButNeverReachesChangedOrCommittedValues(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(Self.model(), on: kind)
        let context = stack.context()
        let note = try Self.savedNote(context)
        let rowsBefore = try stack.allRows()
        try context.performAndWait {
            note.setValue("a summary", forKey: "cachedSummary")
            #expect(note.hasChanges)
            #expect(note.isUpdated)
            #expect(!note.hasPersistentChangedValues)
            #expect(context.hasChanges)
            #expect(note.changedValues().isEmpty)
            #expect(Set(note.committedValues(forKeys: nil).keys) == ["text"])
            #expect(note.committedValues(forKeys: ["cachedSummary", "tags"]).isEmpty)
            try context.save()
            #expect(!note.hasChanges)
            #expect(note.value(forKey: "cachedSummary") as? String == "a summary")
        }
        #expect(try stack.allRows() == rowsBefore, "nothing was written")
        try context.performAndWait {
            note.setValue("edited", forKey: "text")
            #expect(note.hasPersistentChangedValues)
            #expect(Set(note.changedValues().keys) == ["text"])
            try context.save()
        }
        #expect(try stack.reopen().rows("Note").first?.values.first == .attribute("edited"))
    }

    // "If flag is true, this method doesn't affect any transient properties. If flag is false,
    // the object disposes the value of transient properties" (refresh(_:mergeChanges:)
    // documentation); testRefreshResetsTransientValues.
    @Test(arguments: StoreKind.all)
    func refreshMergingKeepsTransientsAndRefreshWithoutDisposesOfThem(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let context = stack.context()
        let note = try Self.savedNote(context)
        let other = stack.context()
        try Self.changeText(of: note.objectID, in: other)
        context.performAndWait {
            context.refresh(note, mergeChanges: true)
            #expect(note.value(forKey: "text") as? String == "changed elsewhere")
            #expect(note.value(forKey: "cachedSummary") as? String == "two colors")
            #expect(Self.tagCount(note) == 2)

            note.setValue("mine", forKey: "text")
            context.refresh(note, mergeChanges: true)
            #expect(note.value(forKey: "text") as? String == "mine")
            #expect(note.value(forKey: "cachedSummary") as? String == "two colors")

            context.refresh(note, mergeChanges: false)
            #expect(note.isFault)
            #expect(note.value(forKey: "cachedSummary") == nil)
            #expect(Self.tagCount(note) == 0)
            #expect(note.value(forKey: "text") as? String == "changed elsewhere")
        }
    }

    // Merging another context's save refreshes with merged changes: transients stay
    // (mergeChanges(fromContextDidSave:) refreshes updated objects, coredata-semantics.md (f)).
    @Test(arguments: StoreKind.all)
    func mergingAnotherContextsUpdateKeepsTransientValues(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let context = stack.context()
        let note = try Self.savedNote(context)
        let other = stack.context()
        let saved = UncheckedSendable(NoteBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
        ) { saved.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        try Self.changeText(of: note.objectID, in: other)
        context.performAndWait {
            context.mergeChanges(fromContextDidSave: saved.value.note!)
            #expect(note.value(forKey: "text") as? String == "changed elsewhere")
            #expect(note.value(forKey: "cachedSummary") as? String == "two colors")
            #expect(Self.tagCount(note) == 2)
            #expect(!note.hasChanges)
        }
    }

    final class NoteBox { var note: Notification? }

    // testTransientValuesSurviveASave and testTransientValuesRideAChildSave.
    @Test(arguments: StoreKind.all)
    func transientValuesSurviveASaveAndRideAChildSaveIntoTheParent(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let parent = stack.context()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        let id = try child.performAndWait {
            let note = child.insertNewObject(forEntityName: "Note")
            note.setValue("from child", forKey: "text")
            note.setValue("green only", forKey: "cachedSummary")
            let tag = child.insertNewObject(forEntityName: "Tag")
            tag.setValue("green", forKey: "label")
            note.add(tag, toRelationship: "tags")
            try child.save()
            return note.objectID
        }
        try parent.performAndWait {
            let note = parent.object(with: id)
            #expect(note.value(forKey: "cachedSummary") as? String == "green only")
            #expect(Self.tagCount(note) == 1)
            try parent.save()
            #expect(note.value(forKey: "cachedSummary") as? String == "green only")
            #expect(Self.tagCount(note) == 1)
            #expect(!note.hasChanges)
        }
    }
}
