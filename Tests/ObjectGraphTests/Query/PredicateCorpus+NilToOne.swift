import Foundation

@testable import ObjectGraph

extension PredicateCorpus {
    /// Collections reached through a nil to-one (t6 has no category; c1 and c4 no parent).
    ///
    /// A key path through a nil to-one is nil, so a collection reached past it is empty: a
    /// `SUBQUERY` over it has no elements (its condition is never evaluated on the object
    /// itself), `@count` and `@sum` are 0, `@avg`/`@min`/`@max` are nil, `ANY` is false and
    /// `ALL`/`NONE` are true. This is what Core Data's SQL store computes (the to-one is a
    /// join that reaches no row, so the correlated subquery is empty).
    static let throughNilToOne: [PredicateCase] = [
        T("SUBQUERY(category.transactions, $t, $t.amount > 50).@count > 0", "t1 t2 t3 t4 t7"),
        T("SUBQUERY(category.transactions, $t, $t.amount > 50).@count == 0", "t5 t6 t8"),
        T("SUBQUERY(category.transactions, $t, $t.note == nil).@count == 0", "t3 t4 t5 t6 t7 t8"),
        T("SUBQUERY(category.parent.children, $c, $c.name == 'Café').@count > 0", "t3 t4 t5 t7 t8"),
        T("ANY category.transactions.note == nil", "t1 t2"),
        T("category.transactions.note == nil", "t1 t2"),
        T("ALL category.transactions.amount > 50", "t6"),
        T("ALL category.transactions.note != nil", "t3 t4 t5 t6 t7 t8"),
        T("NONE category.transactions.amount > 50", "t5 t6 t8"),
        T("NONE category.transactions.note == nil", "t3 t4 t5 t6 t7 t8"),
        T("ALL category.parent.children.name == 'Café'", "t1 t2 t6"),
        T("ANY category.parent.children.name == 'Café'", "t3 t4 t5 t7 t8"),
        T("category.transactions.@count == 0", "t6"),
        T("category.transactions.@sum.amount == 0", "t6"),
        T("category.transactions.@max.amount == nil", "t6"),
        T("category.transactions.@avg.amount == nil", "t6"),
        T("category.transactions CONTAINS %@", "t1 t2", args: { g in [g["t1"]] }),
        T("ANY tags.transactions.category.transactions.amount > 1000", "t2 t3 t6 t8"),
        C("SUBQUERY(parent.children, $c, $c.budget >= 0).@count > 0", "c2 c3"),
        C("SUBQUERY(parent.transactions, $t, $t.amount > 0).@count == 0", "c1 c2 c3 c4"),
        C("ALL parent.children.budget > 1000", "c1 c4"),
        C("parent.children.@count == 0", "c1 c4"),
    ]
}
