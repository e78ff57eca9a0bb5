import Foundation

/// What the engine needs to know about each slot of an entity, computed once when the
/// model is built so hot paths never cast descriptions or allocate.
struct EntityLayout: Sendable {
    enum Kind: UInt8, Sendable {
        case attribute
        case transientAttribute
        case toOne
        case toManyStored
        case toManyDerived
        /// A transient to-one: kept in memory, never in a store row.
        case transientToOne
        /// A transient to-many: kept in memory, never in a store row nor derived by a store.
        case transientToMany
    }

    /// The kind of each slot.
    let kinds: [Kind]
    /// Each slot's attribute, or `nil` for relationships.
    let attributes: [AttributeDescription?]
    /// Each slot's relationship, or `nil` for attributes.
    let relationships: [RelationshipDescription?]
    /// The attributes, in slot order.
    let attributeList: [AttributeDescription]
    /// The relationships, in slot order.
    let relationshipList: [RelationshipDescription]
    /// The values a new object starts with (defaults; empty to-manys are filled per object).
    let defaultAttributeValues: [AttributeValue]
    /// Slots of attributes that have model rules beyond "may be nil".
    let attributesToValidate: [AttributeDescription]
    /// The slots of ``attributesToValidate``.
    let ruledAttributeSlots: SlotSet
    /// The slots of attributes whose only rule is "not nil" (no limits, lengths, pattern or
    /// predicates): validating one is a test for `.null`, without ``ValidationRules``.
    let mandatoryOnlySlots: SlotSet
    /// Each slot's property name (the key the per-key validation hook receives).
    let names: [String]
    /// Relationships that have rules at save (mandatory, counts, deny).
    let relationshipsToValidate: [RelationshipDescription]
    /// Relationships whose delete rule is deny (``DeleteRule/deny``), in slot order: what
    /// `validateForDelete()` checks (most entities have none).
    let denyRelationships: [RelationshipDescription]
    /// Whether this entity or an ancestor declares a uniqueness constraint.
    let hasUniquenessConstraints: Bool
    /// Attributes computed at save from their derivation expression.
    let derivedAttributes: [AttributeDescription]
    /// The slots of transient properties (attributes and relationships).
    let transientSlots: SlotSet
    /// The number of slots when the entity has properties and every one is a stored
    /// attribute or a stored to-one, else 0: a saved insert's row can then stand for its
    /// slots whatever they hold, which `ManagedObject.moveSlotsIntoSavedRow(of:_:)` decides
    /// from this count once per object rather than by a pass over its slots.
    let attributeAndToOneSlotCount: Int
    /// The number of stored to-one slots: room a saved insert's row reserves for the
    /// destinations it keeps beside it when there is more than one.
    let toOneSlotCount: Int

    init(_ entity: EntityDescription) {
        var kinds: [Kind] = []
        var attributes: [AttributeDescription?] = []
        var relationships: [RelationshipDescription?] = []
        for property in entity.properties {
            if let a = property as? AttributeDescription {
                kinds.append(a.isTransient ? .transientAttribute : .attribute)
                attributes.append(a)
                relationships.append(nil)
            } else if let r = property as? RelationshipDescription {
                if r.isTransient {
                    kinds.append(r.isToMany ? .transientToMany : .transientToOne)
                } else {
                    kinds.append(
                        !r.isToMany ? .toOne : (r.isStoredInRow ? .toManyStored : .toManyDerived))
                }
                attributes.append(nil)
                relationships.append(r)
            }
        }
        self.kinds = kinds
        self.attributes = attributes
        self.relationships = relationships
        self.attributeList = attributes.compactMap { $0 }
        self.relationshipList = relationships.compactMap { $0 }
        self.defaultAttributeValues = attributes.map { $0?.defaultValue ?? .null }
        self.attributesToValidate = attributeList.filter { a in
            !a.isOptional || a.minValue != nil || a.maxValue != nil || a.minLength != nil
                || a.maxLength != nil
                || a.pattern != nil || !a.validationPredicates.isEmpty
        }
        self.ruledAttributeSlots = SlotSet(attributesToValidate.map(\.index))
        self.mandatoryOnlySlots = SlotSet(
            attributesToValidate.filter { a in
                a.minValue == nil && a.maxValue == nil && a.minLength == nil && a.maxLength == nil
                    && a.pattern == nil && a.validationPredicates.isEmpty
            }.map(\.index))
        self.names = entity.properties.map(\.name)
        self.relationshipsToValidate = relationshipList.filter { r in
            !r.isOptional || r.minCount > 0 || r.maxCount > 0 || r.deleteRule == .deny
        }
        self.denyRelationships = relationshipList.filter { $0.deleteRule == .deny }
        var ancestor: EntityDescription? = entity
        var constrained = false
        while let e = ancestor {
            constrained = constrained || !e.uniquenessConstraints.isEmpty
            ancestor = e.superentity
        }
        self.hasUniquenessConstraints = constrained
        self.derivedAttributes = attributeList.filter(\.isDerived)
        self.transientSlots = SlotSet(
            kinds.indices.filter {
                [.transientAttribute, .transientToOne, .transientToMany].contains(kinds[$0])
            })
        self.attributeAndToOneSlotCount =
            kinds.allSatisfy { $0 == .attribute || $0 == .toOne } ? kinds.count : 0
        self.toOneSlotCount = kinds.reduce(0) { $0 + ($1 == .toOne ? 1 : 0) }
    }

    static let empty = EntityLayout(kinds: [], attributes: [], relationships: [])

    private init(
        kinds: [Kind], attributes: [AttributeDescription?],
        relationships: [RelationshipDescription?]
    ) {
        self.kinds = kinds
        self.attributes = attributes
        self.relationships = relationships
        self.attributeList = []
        self.relationshipList = []
        self.defaultAttributeValues = []
        self.attributesToValidate = []
        self.ruledAttributeSlots = SlotSet()
        self.mandatoryOnlySlots = SlotSet()
        self.names = []
        self.relationshipsToValidate = []
        self.denyRelationships = []
        self.hasUniquenessConstraints = false
        self.derivedAttributes = []
        self.transientSlots = SlotSet()
        self.attributeAndToOneSlotCount = 0
        self.toOneSlotCount = 0
    }
}
