import Foundation
import ObjectGraph

extension FixtureProvider {
    /// A new container whose store holds the snapshot's rows, with `scheduler` installed: every
    /// context made from it runs its blocks as steps of `scheduler`, and save timestamps read
    /// the scheduler's virtual clock (see ``DeterministicScheduler``).
    ///
    /// ```swift
    /// try DeterministicScheduler.explore(seeds: 0..<100) { scheduler in
    ///     let container = fixtures.makeContainer(scheduler: scheduler)
    ///     …
    /// }
    /// ```
    ///
    /// - Parameter name: The container's name. Default `"Fixtures"`.
    /// - Complexity: O(1): no row is copied until the test changes it.
    public func makeContainer(name: String = "Fixtures", scheduler: DeterministicScheduler)
        -> PersistentContainer
    {
        let container = makeContainer(name: name)
        scheduler.install(on: container)
        return container
    }
}
