import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// The behaviours the concurrency suites check on real queues (MergingAndNotificationTests,
/// ContextMergeTests, ContextTreeTests, ContextEventTests, FetchedResultsChangeTests), with
/// several contexts working at once, under every order a range of seeds picks.
///
/// `swift test` runs seeds 0..<25; the long run is
/// `OBJECTGRAPH_EXPLORE_SEEDS=0..<10000 swift test --filter ExploredConcurrencyTests`.
@Suite struct ExploredConcurrencyTests {
    static let seeds = DeterministicScheduler.seeds(default: 0..<25)
    private static var references: FixtureReferences { SchedulerWorld.fixtures.references }

    /// Fails the run (an exploration stops at the first throw) unless `condition` holds.
    private static func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        if !condition { throw ExplorationCheckFailed(description: what()) }
    }

    private static func name(_ ref: String, in context: ManagedObjectContext) throws -> String? {
        try references.object(ref, in: context).value(forKey: "name") as? String
    }

    // MARK: Merging (MergingAndNotificationTests, ContextMergeTests)

    @Test func concurrentSiblingSavesAllReachAViewContextThatMergesAutomatically() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let view = container.viewContext
            view.automaticallyMergesChangesFromParent = true
            let held = try view.performAndWait {
                try ["food", "travel", "coffee"].map { try Self.references.object($0, in: view) }
            }
            let renamer = container.newBackgroundContext()
            renamer.perform {
                try? Self.references.object("food", in: renamer).setValue(
                    "Groceries", forKey: "name")
                try? renamer.save()
            }
            let painter = container.newBackgroundContext()
            painter.perform {
                try? Self.references.object("travel", in: painter).setValue(
                    "#000000", forKey: "colorHex")
                try? painter.save()
            }
            SchedulerWorld.deleteInBackground("coffee", from: container)
            try scheduler.run()
            try view.performAndWait {
                try Self.check(held[0].value(forKey: "name") as? String == "Groceries", "food")
                try Self.check(held[1].value(forKey: "colorHex") as? String == "#000000", "travel")
                try Self.check(held[2].isDeleted, "coffee deleted")
                try Self.check(!view.hasChanges, "the view has no changes of its own")
                let count = try view.count(
                    for: FetchRequest<ManagedObject>(entityName: "Transaction"))
                try Self.check(count == 4, "4 transactions, not \(count)")
            }
        }
    }

    @Test func aMergeKeepsLocalUnsavedChangesOnOtherPropertiesInEitherOrder() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let editor = container.newBackgroundContext()
            editor.automaticallyMergesChangesFromParent = true
            let held = UncheckedSendable(HeldObject())
            editor.perform {
                let food = try? Self.references.object("food", in: editor)
                food?.setValue("#111111", forKey: "colorHex")
                held.value.object = food
            }
            let saver = container.newBackgroundContext()
            saver.perform {
                try? Self.references.object("food", in: saver).setValue("Groceries", forKey: "name")
                try? saver.save()
            }
            try scheduler.run()
            try editor.performAndWait {
                let food = held.value.object
                try Self.check(food?.value(forKey: "name") as? String == "Groceries", "merged name")
                try Self.check(
                    food?.value(forKey: "colorHex") as? String == "#111111", "kept color")
                try Self.check(food?.hasChanges == true, "still changed")
            }
        }
    }

    final class HeldObject { var object: ManagedObject? }

    // MARK: Parent and child (ContextTreeTests, ContextMergeTests)

    @Test func aChildsSaveReachesTheStoreThroughItsParentWhileOthersRead() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let parent = container.newBackgroundContext()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            let seen = StepLog()
            child.perform {
                try? Self.references.object("food", in: child).setValue("Groceries", forKey: "name")
                try? child.save()
                parent.perform { try? parent.save() }
            }
            let reader = container.newBackgroundContext()
            reader.perform { seen.append((try? Self.name("food", in: reader)) ?? "?") }
            try scheduler.run()
            try Self.check(
                ["Food", "Groceries"].contains(seen.all.first ?? ""), "read \(seen.all)")
            let fresh = container.newBackgroundContext()
            try fresh.performAndWait {
                try Self.check(try Self.name("food", in: fresh) == "Groceries", "saved name")
            }
        }
    }

    @Test func aParentsSaveReachesAChildThatMergesAutomatically() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let parent = container.newBackgroundContext()
            let child = ManagedObjectContext(concurrencyType: .mainQueue)
            child.parent = parent
            child.automaticallyMergesChangesFromParent = true
            let food = try child.performAndWait { try Self.references.object("food", in: child) }
            parent.perform {
                try? Self.references.object("food", in: parent).setValue(
                    "Groceries", forKey: "name")
                try? parent.save()
            }
            try scheduler.run()
            try child.performAndWait {
                try Self.check(food.value(forKey: "name") as? String == "Groceries", "child name")
                try Self.check(!child.hasChanges, "the child has no changes of its own")
            }
        }
    }

    // MARK: Notifications (ContextEventTests, MergingAndNotificationTests)

    @Test func eachPerformBlockPostsOneObjectsDidChangeAndSavesAreAnnouncedInOrder() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let writers = (0..<2).map { _ in container.newBackgroundContext() }
            let log = StepLog()
            let center = NotificationCenter.default
            let tokens = writers.enumerated().flatMap { index, writer in
                [
                    center.addObserver(
                        forName: ManagedObjectContext.didChangeObjectsNotification,
                        object: writer, queue: nil
                    ) { note in
                        let inserted = note.userInfo?[NSInsertedObjectsKey] as? Set<ManagedObject>
                        log.append("change \(index) \(inserted?.count ?? 0)")
                    },
                    center.addObserver(
                        forName: ManagedObjectContext.didSaveObjectsNotification,
                        object: writer, queue: nil
                    ) { note in
                        let inserted = note.userInfo?[NSInsertedObjectsKey] as? Set<ManagedObject>
                        let amount = inserted?.first?.value(forKey: "amount") as? Decimal
                        log.append("save \(index) \(amount ?? -1)")
                    },
                ]
            }
            defer { tokens.forEach(center.removeObserver) }
            for (index, writer) in writers.enumerated() {
                for amount in 1...3 {
                    writer.perform {
                        SchedulerWorld.insertTransaction(Decimal(index * 10 + amount), in: writer)
                        try? writer.save()
                    }
                }
            }
            try scheduler.run()
            for index in 0..<2 {
                let mine = log.all.filter { $0.contains(" \(index) ") }
                let saves = (1...3).map { "save \(index) \(index * 10 + $0)" }
                try Self.check(mine.filter { $0.hasPrefix("save") } == saves, "saves \(mine)")
                // One objects-did-change per block: the save's processPendingChanges announces
                // the insert; the end of the block finds nothing new to announce.
                let changes = mine.filter { $0.hasPrefix("change") }
                try Self.check(
                    changes == Array(repeating: "change \(index) 1", count: 3), "\(mine)")
            }
        }
    }

    // MARK: Fetched results controller (FetchedResultsChangeTests)

    @Test func backgroundSavesMergedIntoTheViewContextReachTheController() throws {
        try DeterministicScheduler.explore(seeds: Self.seeds) { scheduler in
            let container = SchedulerWorld.fixtures.makeContainer(scheduler: scheduler)
            let view = container.viewContext
            view.automaticallyMergesChangesFromParent = true
            let request = FetchRequest<ManagedObject>(entityName: "Transaction")
            request.sortDescriptors = [FetchSortDescriptor(key: "amount")]
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil,
                cacheName: nil)
            let delegate = CountingDelegate()
            try view.performAndWait {
                controller.delegate = delegate
                try controller.performFetch()
            }
            for amount in [Decimal(1), Decimal(2000)] {
                let writer = container.newBackgroundContext()
                writer.perform {
                    SchedulerWorld.insertTransaction(amount, in: writer)
                    try? writer.save()
                }
            }
            SchedulerWorld.deleteInBackground("coffee", from: container)
            try scheduler.run()
            try view.performAndWait {
                let shown = controller.fetchedObjects?.compactMap {
                    $0.value(forKey: "amount") as? Decimal
                }
                let stored = try view.fetch(request).compactMap {
                    $0.value(forKey: "amount") as? Decimal
                }
                try Self.check(shown == stored, "controller \(shown ?? []) store \(stored)")
                try Self.check(shown?.first == 1 && shown?.last == 2000, "\(shown ?? [])")
                try Self.check(shown?.count == 6, "6 transactions")
                try Self.check(delegate.changes >= 1, "the delegate heard of the merges")
            }
        }
    }

    final class CountingDelegate: FetchedResultsControllerDelegate {
        var changes = 0
        func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {
            changes += 1
        }
    }
}
