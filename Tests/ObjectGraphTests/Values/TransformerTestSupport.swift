import Foundation
import ObjectGraph

/// A value only a transformer can store.
struct Swatch: Equatable {
    var red: Double
    var green: Double
    var blue: Double
}

/// Follows the contract of Apple's `valueTransformerName` documentation ("the transformer
/// must output an NSData object from transformedValue: and must allow reverse
/// transformations"): bytes are a marker and the three components, and each call is counted,
/// as FreeCoreData's Apple-run `CDTestPrefixTransformer` (`Tests/NSTransformableAttributeTests.m`)
/// counts them.
final class SwatchTransformer: AttributeValueTransformer, @unchecked Sendable {
    // Sendable: the counters are thread-safe.
    static let marker = Data("OGXFORM1!".utf8)
    let forward = Counter()
    let reverse = Counter()

    override class func transformedValueClass() -> Any.Type { Data.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let swatch = value as? Swatch else { return nil }
        forward.add()
        return Self.marker + Data("\(swatch.red),\(swatch.green),\(swatch.blue)".utf8)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.starts(with: Self.marker) else { return nil }
        reverse.add()
        let parts = String(decoding: data.dropFirst(Self.marker.count), as: UTF8.self)
            .split(separator: ",").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return Swatch(red: parts[0], green: parts[1], blue: parts[2])
    }
}

/// Item(name, payload: transformable named `transformer`, tags: transformable, Codable).
final class Item: ManagedObject {
    @Attribute var name: String?
    @Transformable var payload: Swatch?
    @Transformable var tags: [String]?
}

enum TransformerModel {
    /// `transformablesAs: .binaryData` gives the model the Xcode reader made of the same
    /// Xcode model before transformers were honoured.
    static func make(transformer: String?, transformablesAs type: AttributeType = .transformable)
        throws -> ManagedObjectModel
    {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", managedObjectClass: Item.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(
                        name: "payload", type: type, valueTransformerName: transformer),
                    AttributeDescription(name: "tags", type: type),
                ])
        ])
    }

    /// A name no other test registers.
    static func uniqueName(_ base: String) -> String { "\(base)-\(UUID().uuidString)" }
}
