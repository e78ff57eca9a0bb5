import Foundation
import Testing

@testable import ObjectGraph

/// A value no literal, `Decodable` or `NSObject` initialiser can make: a probe has nothing
/// of its type to hand back.
struct OpaqueGauge: Equatable {
    let reading: Int
    init(_ reading: Int) { self.reading = reading }
}

/// A Codable value with nested fields and a raw-value enum.
struct GaugeSpec: Codable, Equatable {
    enum Unit: String, Codable { case bar, psi }
    var unit: Unit
    var limits: [Double]
    var label: String
}

/// Non-optional `@Transformable` properties, which a key-path probe once answered with a
/// trap ("declare it optional") when a Foundation predicate named them.
final class Gauge: ManagedObject {
    @Attribute var name: String?
    @Transformable var tags: [String]
    @Transformable var limits: [String: Int]
    @Transformable var spec: GaugeSpec
    @Transformable var opaque: OpaqueGauge
}

/// `FetchPredicate(translating:)` on predicates reading non-optional `@Transformable`
/// properties: refused with a thrown 134060 (a transformable value is the transformer's bytes,
/// not something the predicate language looks inside), never a trap.
@Suite struct NonOptionalTransformablePredicateTests {
    private func expectRefused(_ predicate: Predicate<Gauge>) {
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchPredicate(translating: predicate)
        }
        let bridged = error.map { $0 as NSError }
        #expect(bridged?.domain == NSCocoaErrorDomain)
        #expect(bridged?.code == 134_060)
    }

    @Test func aNonOptionalCollectionTransformableIsRefusedWithAnErrorNotATrap() {
        expectRefused(#Predicate<Gauge> { $0.tags.isEmpty })
        expectRefused(#Predicate<Gauge> { $0.limits.count > 2 })
    }

    @Test func aNonOptionalTrivialTransformableIsRefusedWithAnErrorNotATrap() throws {
        expectRefused(#Predicate<Gauge> { $0.opaque.reading == 3 })
        // The other properties of the entity still translate.
        let name = try FetchPredicate(translating: #Predicate<Gauge> { $0.name == "a" })
        #expect(name == (try FetchPredicate(format: #"name == "a""#)))
    }
}
