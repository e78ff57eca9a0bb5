import Foundation
import ObjectGraph

/// One seeding run inside one context: inserts the objects, fills their attributes, connects
/// their relationships and makes uniqueness constraints hold. Used on the context's queue only.
final class SeedRun {
    let context: ManagedObjectContext
    let seed: UInt64
    let generator: ValueGenerator
    /// Every object made, entity by entity in model order.
    private(set) var objects: [ManagedObject] = []
    /// Each object's index among the objects of its own entity.
    private(set) var indexInEntity: [Int] = []
    /// The probability that an optional attribute is left `nil`.
    static let nilChance = 0.15
    /// Told how many objects of the run are made (every attribute set), every
    /// ``progressInterval`` values and at the end of each entity; `nil` by default.
    var progress: ((_ made: Int) -> Void)?
    /// How many values are set between two progress reports.
    static let progressInterval = 4_096

    init(context: ManagedObjectContext, seed: UInt64, referenceDate: Date) {
        self.context = context
        self.seed = seed
        self.generator = ValueGenerator(referenceDate: referenceDate, patterns: CompiledPatterns())
    }

    func random(_ stream: String) -> SeededRandomNumberGenerator {
        SeededRandomNumberGenerator(seed: seed, stream: stream)
    }

    /// Checks that every pattern the run will need is one the generator supports.
    func checkPatterns(_ plan: [(EntityDescription, Int)]) throws {
        for (entity, count) in plan where count > 0 {
            for attribute in Self.generatedAttributes(entity) {
                _ = try generator.patterns.node(for: attribute, of: entity.name)
            }
        }
    }

    /// The attributes the seeder sets: stored, not derived.
    static func generatedAttributes(_ entity: EntityDescription) -> [AttributeDescription] {
        entity.attributes.filter { !$0.isTransient && !$0.isDerived }
    }

    /// Inserts the objects and gives every attribute a value.
    func insertObjects(_ plan: [(EntityDescription, Int)]) throws {
        for (entity, count) in plan where count > 0 {
            let first = objects.count
            for i in 0..<count {
                objects.append(context.insertNewObject(forEntityName: entity.name))
                indexInEntity.append(i)
            }
            let attributes = Self.generatedAttributes(entity)
            for (a, attribute) in attributes.enumerated() {
                var random = random("attribute:\(entity.name).\(attribute.name)")
                for i in 0..<count {
                    let value = try generator.value(
                        for: attribute, of: entity, index: i, attempt: 0,
                        nilChance: Self.nilChance, random: &random)
                    objects[first + i].setAttributeValue(value, forKey: attribute.name)
                    // Objects made so far: the share of this entity's values set.
                    if let progress, i % Self.progressInterval == Self.progressInterval - 1 {
                        progress(first + (a * count + i + 1) / attributes.count)
                    }
                }
            }
            for object in objects[first...] { DerivedPlaceholder.fill(object) }
            progress?(objects.count)
        }
    }

    /// The objects (by number) that are instances of `entity` or its subentities.
    func members(of entity: EntityDescription) -> [Int] {
        objects.indices.filter { objects[$0].entity.isKind(of: entity) }
    }
}
