import Foundation
import ObjectGraph

/// Placeholder values for non-optional derived attributes, which fixtures and the seeder set
/// on the objects they insert.
///
/// A derived attribute is computed at save, after validation, so on an object's first save
/// a non-optional one is still nil and the save fails with 1570 as in Core Data
/// (FreeCoreData's Apple-run `testNonOptionalDerivedAttributeFailsInsertValidation`). Apple's
/// remedy is a placeholder set in `awakeFromInsert`; the fixture loader and the seeder set
/// one for the app, and the save replaces it with the computed value.
enum DerivedPlaceholder {
    /// Gives every non-optional derived attribute of `object` that is nil a placeholder.
    static func fill(_ object: ManagedObject) {
        for attribute in object.entity.attributes
        where attribute.isDerived && !attribute.isOptional
            && object.attributeValue(forKey: attribute.name).isNull
        {
            if let value = placeholder(for: attribute.type) {
                object.setAttributeValue(value, forKey: attribute.name)
            }
        }
    }

    /// A value of `type` that stands for "not computed yet".
    static func placeholder(for type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64: .integer(0)
        case .decimal: .decimal(0)
        case .double: .double(0)
        case .float: .float(0)
        case .string: .string("")
        case .boolean: .boolean(false)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binaryData: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .uri: URL(string: "about:blank").map { .uri($0) }
        case .transformable: .transformable(Data())
        case .undefined, .objectID: nil
        }
    }
}
