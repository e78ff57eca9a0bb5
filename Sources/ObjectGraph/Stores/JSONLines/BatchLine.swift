import Foundation

/// A batch update recorded as the update itself (format version 6,
/// <doc:StoreFileFormat#34-Batch-lines-version-6>): the rows it touched, as runs of
/// consecutive primary keys, and its assignments, which a reader evaluates again on each of
/// those rows, in the line's order, to get the values the writer computed.
///
/// A batch update of one attribute of 100,000 rows is then a line of a hundred bytes, not
/// 100,000 partial rows of about 40 bytes each to encode, checksum, write and sync.
///
/// The writer records a batch this way only when the line's evaluation is defined exactly by
/// the article and gives, on every planned row, bit for bit the value the plan holds: every
/// assignment is a constant (of any attribute type but `transformable` and `undefined`), or
/// `double` arithmetic (`+ - * /`) on the row's own `double` attributes and finite constants.
/// ``init(_:_:table:)`` checks the second condition on the rows themselves, so a difference
/// between this evaluation and the engine's (a rule the article and `PredicateArithmetic` might
/// one day disagree on) makes the update fall back to partial rows, never a wrong file.
struct BatchLine: Sendable {
    /// Consecutive primary keys of one entity, `first...last`.
    struct Run: Sendable, Equatable {
        var entityIndex: Int
        var first: Int64
        var last: Int64
    }

    /// An arithmetic operator of the line's expressions.
    enum Operator: UInt8, Sendable, CaseIterable {
        case add, subtract, multiply, divide

        /// The operator's name in the file.
        var symbol: String {
            switch self {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            case .divide: "/"
            }
        }
    }

    /// A `double` expression over one row.
    indirect enum Term: Sendable {
        /// The row's value of a stored `double` attribute (its slot).
        case column(Int)
        /// A finite constant.
        case constant(Double)
        /// An operation on two terms.
        case operation(Operator, Term, Term)
    }

    /// An assignment's new value.
    enum Value: Sendable {
        /// The same value for every row, in the attribute's stored form.
        case constant(StoreValue)
        /// A `double` expression evaluated on each row.
        case term(Term)
    }

    /// One updated stored attribute.
    struct Assignment: Sendable {
        /// The attribute's slot.
        var slot: Int
        var value: Value
    }

    /// The request's entity (its index in the model): the rows are of it or its subentities,
    /// and the assignments name its columns.
    var entityIndex: Int
    /// The updated stored attributes, slots ascending.
    var assignments: [Assignment]
    /// The updated rows, in the order they were updated: entity by entity, keys ascending.
    var runs: [Run]

    /// The number of rows the runs cover.
    var rowCount: Int {
        runs.reduce(0) { $0 + Int(clamping: $1.last - $1.first + 1) }
    }
}

extension BatchLine.Value {
    /// The new value for `row`: `nil` when a column the expression reads holds something
    /// other than a `double` or `null` (the line cannot be evaluated on that row).
    func value(for row: StoreRow) -> StoreValue? {
        switch self {
        case .constant(let value):
            return value
        case .term(.column(let slot)):
            // A column copied alone keeps its value as it is (a NaN or an infinity included).
            guard slot < row.values.count else { return nil }
            switch row.values[slot] {
            case .attribute(.double), .attribute(.null): return row.values[slot]
            default: return nil
            }
        case .term(let term):
            var valid = true
            let result = row.values.withUnsafeBufferPointer { term.evaluate($0, &valid) }
            guard valid else { return nil }
            return .attribute(result.isNaN ? .null : .double(result))
        }
    }
}

extension BatchLine.Term {
    /// The term's value on a row's values (read in place), NaN standing for `null`: a `null`
    /// column is NaN, and an operation with a NaN operand, a zero divisor, or a result that is
    /// not finite is NaN (`PredicateArithmetic`'s rules: an operation's non-finite result is
    /// `null`). IEEE 754 binary64 arithmetic, rounding to nearest, ties to even. Sets `valid`
    /// to `false` when a column holds something other than a `double` or `null`. What replay
    /// applies and what the writer checks every planned row with.
    func evaluate(_ values: UnsafeBufferPointer<StoreValue>, _ valid: inout Bool) -> Double {
        switch self {
        case .constant(let c):
            return c
        case .column(let slot):
            guard slot < values.count else {
                valid = false
                return .nan
            }
            switch values[slot] {
            case .attribute(.double(let x)): return x
            case .attribute(.null): return .nan
            default:
                valid = false
                return .nan
            }
        case .operation(let op, let a, let b):
            let x = a.evaluate(values, &valid)
            let y = b.evaluate(values, &valid)
            if x.isNaN || y.isNaN { return .nan }
            let r: Double
            switch op {
            case .add: r = x + y
            case .subtract: r = x - y
            case .multiply: r = x * y
            case .divide:
                if y == 0 { return .nan }
                r = x / y
            }
            return r.isFinite ? r : .nan
        }
    }
}

extension BatchLine {
    /// The line recording `plan` (planned with `findingChanges` on `table`'s rows as they are)
    /// of `update`, or `nil` when the update must be written as partial rows: an assignment
    /// the line cannot express, keys of an entity not ascending or an entity's rows not
    /// together in the plan, or a planned value the line's evaluation does not give bit for
    /// bit.
    ///
    /// - Complexity: O(m × k) for m planned rows and k updated attributes.
    init?(_ update: RowBatchUpdate, _ plan: RowBatchPlan, table: RowTable) {
        guard !plan.isEmpty else { return nil }
        let entity = update.entity
        var assignments: [Assignment] = []
        var checkedConstants = Set<Int>()
        for slot in plan.slots {
            guard
                let u = update.updates.first(where: {
                    $0.attribute.index == slot && !$0.attribute.isTransient
                })
            else { return nil }
            switch u.value {
            case .constant(let value?):
                guard Self.writesConstants(of: u.attribute.type) else { return nil }
                assignments.append(Assignment(slot: slot, value: .constant(.attribute(value))))
            case .constant(nil):
                return nil
            case .expression(let expression):
                guard u.attribute.type == .double,
                    case (let term, _)? = Self.term(expression.node, entity: entity, depth: 0)
                else { return nil }
                if case .constant(let c) = term {
                    // A constant alone is a constant assignment, checked like an expression:
                    // the engine converts a decimal or integer literal to a double its own
                    // way, which need not be the nearest double the line's number reads as.
                    checkedConstants.insert(assignments.count)
                    assignments.append(
                        Assignment(slot: slot, value: .constant(.attribute(.double(c)))))
                } else {
                    assignments.append(Assignment(slot: slot, value: .term(term)))
                }
            }
        }
        // Only transient attributes changed: nothing for a line to assign (the article
        // requires at least one column).
        guard !assignments.isEmpty else { return nil }
        // The line must give what the plan holds, bit for bit: each expression is evaluated
        // on each row and compared with the planned value (a constant is planned as itself).
        // A column copied alone is compared as it is (its NaN payloads included).
        let checks: [(position: Int, column: Int, term: Term?)] =
            assignments.enumerated().compactMap { k, assignment in
                switch assignment.value {
                case .constant(.attribute(.double(let c))) where checkedConstants.contains(k):
                    return (k, -1, Term.constant(c))
                case .constant: return nil
                case .term(.column(let slot)): return (k, slot, nil)
                case .term(let term): return (k, -1, term)
                }
            }
        let width = plan.slots.count
        let refs = plan.refs
        var runs: [Run] = []
        var seen = Set<Int>()
        var i = 0
        let agrees = plan.values.withUnsafeBufferPointer { planned -> Bool in
            while i < refs.count {
                // Entity by entity, reading its rows in place.
                let e = refs[i].entity
                guard seen.insert(e).inserted else { return false }
                var run = Run(entityIndex: e, first: 0, last: -1)
                let rows = table.entityTables[e].rows
                let ok = rows.withUnsafeBufferPointer { rows -> Bool in
                    while i < refs.count, refs[i].entity == e {
                        guard let pk = rows[refs[i].slot]?.objectID.primaryKey, pk > run.last
                        else { return false }
                        if pk != run.last + 1 {
                            if run.last >= run.first { runs.append(run) }
                            run.first = pk
                        }
                        run.last = pk
                        if !checks.isEmpty {
                            let same = rows[refs[i].slot].unsafelyUnwrapped.values
                                .withUnsafeBufferPointer { values in
                                    checks.allSatisfy { check in
                                        let planned = planned[i * width + check.position]
                                        guard let term = check.term else {
                                            return check.column < values.count
                                                && Self.isCopy(values[check.column], planned)
                                        }
                                        var valid = true
                                        let r = term.evaluate(values, &valid)
                                        return valid && Self.isPlanned(r, planned)
                                    }
                                }
                            guard same else { return false }
                        }
                        i += 1
                    }
                    return true
                }
                guard ok else { return false }
                runs.append(run)
            }
            return true
        }
        guard agrees else { return nil }
        self.init(entityIndex: entity.index, assignments: assignments, runs: runs)
    }

    /// Whether `r` (an evaluated term, NaN for `null`) is the planned value `planned`, bit for
    /// bit.
    @inline(__always)
    private static func isPlanned(_ r: Double, _ planned: StoreValue) -> Bool {
        switch planned {
        case .attribute(.double(let p)): !r.isNaN && r.bitPattern == p.bitPattern
        case .attribute(.null): r.isNaN
        default: false
        }
    }

    /// Whether `planned` is the double or `null` `value` copied, bit for bit.
    @inline(__always)
    private static func isCopy(_ value: StoreValue, _ planned: StoreValue) -> Bool {
        switch (value, planned) {
        case (.attribute(.double(let v)), .attribute(.double(let p))): v.bitPattern == p.bitPattern
        case (.attribute(.null), .attribute(.null)): true
        default: false
        }
    }

    /// Whether a constant of `type` is recorded as itself (its encoding reads back bit for
    /// bit, §5): every type but `transformable` (a payload the application's transformer
    /// made) and `undefined`.
    static func writesConstants(of type: AttributeType) -> Bool {
        type != .transformable && type != .undefined
    }

    /// `node` as a term of `entity`'s rows, and whether it is a `double` (a column, or an
    /// operation with a `double` operand); `nil` for anything else. An operation on two
    /// constants alone is not a term: `PredicateArithmetic` computes it on integers or
    /// decimals.
    private static func term(_ node: ExpressionNode, entity: EntityDescription, depth: Int) -> (
        BatchLine.Term, isDouble: Bool
    )? {
        switch node {
        case .path(base: .evaluatedObject, let steps, collection: nil):
            // `["k", column]` is an array: as deep as readers take (RowCodec.batchTermDepth).
            guard depth < RowCodec.batchTermDepth, steps.count == 1,
                case .attribute(let slot) = steps[0],
                slot < entity.properties.count,
                let attribute = entity.properties[slot] as? AttributeDescription,
                !attribute.isTransient, attribute.type == .double
            else { return nil }
            return (.column(slot), true)
        case .constant(.value(let value)):
            // The constant as the arithmetic widens it for a `double` operand.
            switch value {
            case .integer, .double, .float, .decimal: break
            default: return nil
            }
            guard let number = PredicateNumber(value), number.doubleValue.isFinite else {
                return nil
            }
            return (.constant(number.doubleValue), false)
        case .function(.noIndex, let arguments) where arguments.count == 1:
            return term(arguments[0], entity: entity, depth: depth)
        case .function(let function, let arguments)
        where arguments.count == 2 && depth < RowCodec.batchTermDepth:
            let op: Operator
            switch function {
            case .add: op = .add
            case .subtract: op = .subtract
            case .multiply: op = .multiply
            case .divide: op = .divide
            default: return nil
            }
            guard case (let a, let aDouble)? = term(arguments[0], entity: entity, depth: depth + 1),
                case (let b, let bDouble)? = term(arguments[1], entity: entity, depth: depth + 1),
                aDouble || bDouble
            else { return nil }
            return (.operation(op, a, b), true)
        default:
            return nil
        }
    }
}
