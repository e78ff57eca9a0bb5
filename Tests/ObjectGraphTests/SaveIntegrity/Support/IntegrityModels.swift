import Foundation
import ObjectGraph

/// Models of the save-integrity scenarios, built fresh for each test (a description belongs
/// to one model). Entity classes are nested here so their names stay out of other tests' way.
enum IntegrityModels {
    typealias A = AttributeDescription
    typealias R = RelationshipDescription
    typealias E = EntityDescription

    /// B05/B06 and the upsert tests: `Tag(name)` unique, with a to-one inverse (`Note.tag`),
    /// a one-to-one (`Tag.favorite`), a many-to-many (`Post.tags`), a compound constraint (`Seat(row, number)`), a
    /// constraint on a to-one (`Badge(owner, kind)`) and one declared on a superentity
    /// (`Animal(name)`, inherited by `Dog` and `Cat`).
    static func upsert() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Tag",
                properties: [
                    A(name: "name", type: .string),
                    A(name: "color", type: .integer16),
                    A(name: "note", type: .string),
                    R(name: "notes", destination: "Note", inverse: "tag", isToMany: true),
                    R(name: "posts", destination: "Post", inverse: "tags", isToMany: true),
                    R(name: "badges", destination: "Badge", inverse: "owner", isToMany: true),
                    R(name: "favorite", destination: "Note", inverse: "favoriteOf"),
                ], uniquenessConstraints: [["name"]]),
            E(
                name: "Note",
                properties: [
                    A(name: "text", type: .string),
                    R(name: "tag", destination: "Tag", inverse: "notes"),
                    R(name: "favoriteOf", destination: "Tag", inverse: "favorite"),
                ]),
            E(
                name: "Post",
                properties: [
                    A(name: "title", type: .string),
                    R(name: "tags", destination: "Tag", inverse: "posts", isToMany: true),
                ]),
            E(
                name: "Seat",
                properties: [
                    A(name: "row", type: .string),
                    A(name: "number", type: .integer32),
                    A(name: "holder", type: .string),
                ], uniquenessConstraints: [["row", "number"]]),
            E(
                name: "Badge",
                properties: [
                    A(name: "kind", type: .string),
                    A(name: "level", type: .integer16),
                    R(name: "owner", destination: "Tag", inverse: "badges"),
                ], uniquenessConstraints: [["owner", "kind"]]),
            E(
                name: "Animal",
                properties: [
                    A(name: "name", type: .string),
                    A(name: "age", type: .integer16),
                ], uniquenessConstraints: [["name"]]),
            E(
                name: "Dog", superentityName: "Animal",
                properties: [A(name: "breed", type: .string)]),
            E(
                name: "Cat", superentityName: "Animal",
                properties: [A(name: "lives", type: .integer16)]),
        ])
    }

    /// B08 and B36: `Person(name, age)` and `Item(state)`.
    static func people() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Person",
                properties: [
                    A(name: "name", type: .string),
                    A(name: "age", type: .integer64),
                    R(name: "employer", destination: "Company", inverse: "staff"),
                ]),
            E(
                name: "Company",
                properties: [
                    A(name: "name", type: .string),
                    R(name: "staff", destination: "Person", inverse: "employer", isToMany: true),
                ]),
            E(name: "Item", properties: [A(name: "state", type: .string)]),
        ])
    }

    /// B09, B12, B13: blogs cascade to posts; a post requires its blog; a category denies
    /// deletion while it has groups.
    static func blogs() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Blog",
                properties: [
                    A(name: "name", type: .string),
                    R(
                        name: "posts", destination: "BlogPost", inverse: "blog", isToMany: true,
                        deleteRule: .cascade),
                ]),
            E(
                name: "BlogPost",
                properties: [
                    A(name: "title", type: .string),
                    R(name: "blog", destination: "Blog", inverse: "posts", isOptional: false),
                ]),
            E(
                name: "Category",
                properties: [
                    A(name: "name", type: .string),
                    R(
                        name: "groups", destination: "Group", inverse: "category", isToMany: true,
                        deleteRule: .deny),
                ]),
            E(
                name: "Group",
                properties: [
                    A(name: "name", type: .string),
                    R(name: "category", destination: "Category", inverse: "groups"),
                ]),
        ])
    }

    /// B14: `Customer.order` mis-modelled as a to-one (or, fixed, `orders` to-many).
    static func orders(fixed: Bool) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Customer",
                properties: [
                    A(name: "name", type: .string),
                    fixed
                        ? R(
                            name: "orders", destination: "Order", inverse: "customer",
                            isToMany: true)
                        : R(name: "order", destination: "Order", inverse: "customer"),
                ]),
            E(
                name: "Order",
                properties: [
                    A(name: "number", type: .integer32),
                    R(
                        name: "customer", destination: "Customer",
                        inverse: fixed ? "orders" : "order", isOptional: false),
                ]),
        ])
    }

    /// B15: `Parcel(slug, name required; code at most 5 characters)`.
    static func parcels() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Parcel",
                properties: [
                    A(name: "slug", type: .string, isOptional: false),
                    A(name: "name", type: .string, isOptional: false),
                    A(name: "code", type: .string, maxLength: 5),
                ])
        ])
    }

    /// One entity `V` with one attribute `a` of `type` carrying the given rules.
    static func single(_ attribute: AttributeDescription) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [E(name: "V", properties: [attribute])])
    }
}
