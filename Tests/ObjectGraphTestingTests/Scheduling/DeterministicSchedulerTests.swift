import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct DeterministicSchedulerTests {
    private var fixtures: FixtureProvider { SchedulerWorld.fixtures }

    @Test func queuedBlocksRunOnlyWhenTheTestDrivesTheScheduler() throws {
        let scheduler = DeterministicScheduler(seed: 1)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let log = StepLog()
        let background = container.newBackgroundContext()
        background.perform { log.append("ran") }
        #expect(log.all.isEmpty)
        #expect(!scheduler.isIdle)
        #expect(scheduler.runOne())
        #expect(log.all == ["ran"])
        #expect(!scheduler.runOne())
        #expect(scheduler.isIdle)
    }

    /// A store opened with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` posts
    /// `NSPersistentStoreRemoteChange` for its own process's saves too (Apple: "posted whenever
    /// … a remote change is made to the store", and Core Data posts its own saves); under the
    /// scheduler the post is a step of its own, after the save's step.
    @Test func remoteChangeNotificationsArePostedAsSchedulerSteps() throws {
        let scheduler = DeterministicScheduler(seed: 3)
        let model = fixtures.model
        var options = StoreOptions()
        options.postsRemoteChangeNotifications = true
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(InMemoryStore(model: model, options: options))
        scheduler.install(on: coordinator)
        let log = StepLog()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil
        ) { _ in log.append("remote change") }
        defer { NotificationCenter.default.removeObserver(observer) }
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.perform {
            SchedulerWorld.insertTransaction(5, in: context)
            try? context.save()
            log.append("saved")
        }
        #expect(log.all.isEmpty)
        #expect(scheduler.runOne())
        #expect(log.all == ["saved"])
        try scheduler.run()
        #expect(log.all == ["saved", "remote change"])
        #expect(scheduler.steps.contains { $0.contains("remote change") })
    }

    @Test func everyContextMadeFromTheContainerLaterRunsOnIt() throws {
        let scheduler = DeterministicScheduler(seed: 2)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let log = StepLog()
        let background = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = background
        let draft = ManagedObjectContext(concurrencyType: .mainQueue)
        draft.parent = container.viewContext
        for (name, context) in [
            ("view", container.viewContext), ("background", background), ("child", child),
            ("draft", draft),
        ] {
            context.perform { log.append(name) }
        }
        #expect(log.all.isEmpty)
        try scheduler.run()
        #expect(Set(log.all) == ["view", "background", "child", "draft"])
        // The view context and the draft share the main lane: the view's block runs first.
        #expect(log.all.firstIndex(of: "view")! < log.all.firstIndex(of: "draft")!)
    }

    @Test func blocksOfOneContextKeepTheirOrderUnderEverySeedAndSeedsChooseOtherOrders()
        throws
    {
        var orders: Set<[String]> = []
        for seed: UInt64 in 0..<40 {
            let scheduler = DeterministicScheduler(seed: seed)
            let container = fixtures.makeContainer(scheduler: scheduler)
            let log = StepLog()
            let a = container.newBackgroundContext()
            let b = container.newBackgroundContext()
            for i in 0..<4 {
                a.perform { log.append("a\(i)") }
                b.perform { log.append("b\(i)") }
            }
            try scheduler.run()
            #expect(log.all.filter { $0.hasPrefix("a") } == ["a0", "a1", "a2", "a3"])
            #expect(log.all.filter { $0.hasPrefix("b") } == ["b0", "b1", "b2", "b3"])
            orders.insert(log.all)
        }
        #expect(orders.count > 10)
    }

    @Test func theSameSeedRunsTheSameStepsInTheSameOrder() throws {
        func steps(_ seed: UInt64) throws -> [String] {
            let scheduler = DeterministicScheduler(seed: seed)
            let container = fixtures.makeContainer(scheduler: scheduler)
            container.viewContext.automaticallyMergesChangesFromParent = true
            let writers = (0..<3).map { i in
                let context = container.newBackgroundContext()
                context.name = "writer \(i)"
                return context
            }
            for (i, writer) in writers.enumerated() {
                writer.perform {
                    SchedulerWorld.insertTransaction(Decimal(i + 1), in: writer)
                    try? writer.save()
                }
            }
            try scheduler.run()
            return scheduler.steps
        }
        let first = try steps(11)
        #expect(first.contains { $0.contains("perform of 'writer 0'") })
        #expect(first.contains { $0.contains("main: perform of 'viewContext'") })
        #expect(try steps(11) == first)
        let others = try (12..<20).map { try steps($0) }
        #expect(others.contains { $0 != first })
    }

    /// "later" is queued by the first block: before the performAndWait when the scheduler lets
    /// the lane run first (as its thread may have), else after it.
    @Test func performAndWaitRunsAfterTheBlocksAlreadyQueuedOnItsContext() throws {
        var orders: Set<[String]> = []
        for seed: UInt64 in 0..<20 {
            let scheduler = DeterministicScheduler(seed: seed)
            let container = fixtures.makeContainer(scheduler: scheduler)
            let log = StepLog()
            let context = container.newBackgroundContext()
            context.perform {
                log.append("first")
                context.perform { log.append("later") }
            }
            context.perform { log.append("second") }
            context.performAndWait { log.append("wait") }
            try scheduler.run()
            #expect(
                log.all == ["first", "second", "wait", "later"]
                    || log.all == ["first", "second", "later", "wait"])
            orders.insert(log.all)
        }
        #expect(orders.count == 2)
    }

    @Test func performAndWaitOnItsOwnContextInsideABlockRunsInline() throws {
        let scheduler = DeterministicScheduler(seed: 3)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let log = StepLog()
        let context = container.newBackgroundContext()
        context.perform {
            log.append("outer start")
            context.performAndWait { log.append("inline") }
            log.append("outer end")
        }
        context.perform { log.append("next block") }
        try scheduler.run()
        #expect(log.all == ["outer start", "inline", "outer end", "next block"])
    }

    @Test func aChildsPerformAndWaitInsideItsParentsBlockMayUseTheParent() throws {
        let scheduler = DeterministicScheduler(seed: 4)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        let names = UncheckedSendable(StepLog())
        parent.perform {
            // The parent's ownership is lent to the child's block, as Core Data allows.
            child.performAndWait {
                let food = try? SchedulerWorld.fixtures.references.object("food", in: child)
                food?.setValue("Groceries", forKey: "name")
                try? child.save()
                let inParent = try? SchedulerWorld.fixtures.references.object("food", in: parent)
                names.value.append(inParent?.value(forKey: "name") as? String ?? "?")
            }
        }
        try scheduler.run()
        #expect(names.value.all == ["Groceries"])
    }

    @MainActor
    @Test func theEndOfTheMainQueueTurnIsAStepOfTheScheduler() throws {
        let scheduler = DeterministicScheduler(seed: 5)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let view = container.viewContext
        let log = StepLog()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: view, queue: nil
        ) { _ in log.append("objects did change") }
        defer { NotificationCenter.default.removeObserver(token) }
        // A @MainActor test stands for the main thread: it uses the view context directly.
        SchedulerWorld.insertTransaction(7, in: view)
        #expect(log.all.isEmpty)
        try scheduler.run()
        #expect(log.all == ["objects did change"])
        #expect(scheduler.steps == ["1. main: end of main-queue turn of 'viewContext'"])
    }

    @Test func theContainersClockReadsTheVirtualClock() throws {
        let start = Date(timeIntervalSinceReferenceDate: 1000)
        let scheduler = DeterministicScheduler(seed: 6, start: start)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let clock = container.persistentStoreCoordinator.clock
        #expect(clock() == start)
        #expect(clock() == start)
        scheduler.advance(by: 90)
        #expect(clock() == start.addingTimeInterval(90))
        #expect(scheduler.now == start.addingTimeInterval(90))
        #expect(scheduler.steps == ["clock advanced by 90.0 s"])
    }

    @Test func runUntilFailsWithTheStepsWhenTheLimitIsReached() throws {
        let scheduler = DeterministicScheduler(seed: 7)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let context = container.newBackgroundContext()
        context.name = "spinner"
        @Sendable func spin() { context.perform { spin() } }
        spin()
        do {
            try scheduler.runUntil(maxSteps: 5) { false }
            Issue.record("runUntil returned")
        } catch let error as ObjectGraphError {
            #expect(error.reason == .schedulerStepLimit)
            #expect(error.code == 134060)
            #expect(error.message.contains("DeterministicScheduler(seed: 7) ran 5 steps"))
            #expect(error.message.contains("5. private 1: perform of 'spinner'"))
            let steps = error.userInfo[DeterministicSchedulerErrorKey.steps] as? [String]
            #expect(steps?.count == 5)
        }
        #expect {
            try scheduler.run(maxSteps: 3)
        } throws: { error in
            (error as? ObjectGraphError)?.reason == .schedulerStepLimit
        }
    }

    @Test func runUntilFailsWhenNothingIsLeftToRun() throws {
        let scheduler = DeterministicScheduler(seed: 8)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let log = StepLog()
        container.newBackgroundContext().perform { log.append("one") }
        try scheduler.runUntil { log.all.count == 1 }
        do {
            try scheduler.runUntil { log.all.count == 2 }
            Issue.record("runUntil returned")
        } catch let error as ObjectGraphError {
            #expect(error.reason == .schedulerStepLimit)
            #expect(error.message.contains("nothing left to run after 0 steps"))
            #expect(error.message.contains("1. private 1: perform of context"))
        }
    }

    @Test func asyncPerformResumesAsAStepOfTheScheduler() throws {
        let scheduler = DeterministicScheduler(seed: 9)
        let container = fixtures.makeContainer(scheduler: scheduler)
        let background = container.newBackgroundContext()
        let total = try scheduler.runTask {
            try await background.perform { try SchedulerWorld.total(in: background) }
        }
        #expect(total == SchedulerWorld.fixtureTotal)
        let steps = scheduler.steps
        #expect(steps.count == 3)
        #expect(steps.first?.hasSuffix("task: job 1") == true)
        #expect(steps.dropFirst().first?.contains("perform (async) of context") == true)
        #expect(steps.last?.contains("task: job") == true)
    }

    @Test func storesAddedAsynchronouslyOpenAsAStep() throws {
        let scheduler = DeterministicScheduler(seed: 10)
        let container = PersistentContainer(
            name: "Async", managedObjectModel: try ProjectFixtures.model("ExpenseTracker"))
        scheduler.install(on: container)
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        description.shouldAddStoreAsynchronously = true
        container.persistentStoreDescriptions = [description]
        let log = StepLog()
        container.loadPersistentStores { _, error in log.append(error == nil ? "ok" : "\(error!)") }
        #expect(log.all.isEmpty)
        try scheduler.run()
        #expect(log.all == ["ok"])
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }
}
