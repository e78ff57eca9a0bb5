import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The identity table a tracking fetched results controller keeps each result's placement in
/// (in place of a `Dictionary`, issue 19): it must answer as a dictionary would through
/// inserts, overwrites, removals (which shift probe runs back) and growth.
@Suite struct PlacementTableTests {
    private final class Token {}

    private func placement(_ sequence: Int) -> FetchedPlacement {
        FetchedPlacement(first: .string("k\(sequence)"), section: "", sequence: sequence)
    }

    @Test func answersAsADictionaryThroughSeededInsertsOverwritesAndRemovals() {
        var random = SeededRandomNumberGenerator(seed: 19)
        let tokens = (0..<600).map { _ in Token() }
        var table = PlacementTable()
        var model: [ObjectIdentifier: Int] = [:]
        for step in 0..<20_000 {
            let id = ObjectIdentifier(tokens[Int.random(in: 0..<tokens.count, using: &random)])
            if Bool.random(using: &random) || model.count < 50 {
                table[id] = placement(step)
                model[id] = step
            } else {
                table[id] = nil
                model[id] = nil
            }
            #expect(table.count == model.count)
        }
        for token in tokens {
            let id = ObjectIdentifier(token)
            #expect(table[id]?.sequence == model[id])
        }
    }

    @Test func aTableBuiltFromEntriesFindsEveryObjectAndNoOther() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Item")])
        let entity = try #require(model.entitiesByName["Item"])
        let tokens = (0..<1_000).map { _ in Token() }
        let objects = (0..<1_000).map { _ in ManagedObject(entity: entity, insertInto: nil) }
        let entries = objects.enumerated().map {
            FetchedEntry(object: $0.element, placement: placement($0.offset))
        }
        let table = PlacementTable(entries)
        #expect(table.count == 1_000)
        for (i, object) in objects.enumerated() {
            #expect(table[ObjectIdentifier(object)]?.sequence == i)
        }
        for token in tokens { #expect(table[ObjectIdentifier(token)] == nil) }
    }
}
