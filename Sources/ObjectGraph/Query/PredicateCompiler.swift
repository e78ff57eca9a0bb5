import Foundation

/// Turns a predicate's syntax tree into ``PredicateNode``s for one entity: resolves key
/// paths to slots, checks them, prepares constants, binds `SUBQUERY` variables, and picks
/// the fast node shapes.
struct PredicateCompiler {
    /// The deepest syntax tree compiled (parsed strings stay far below it).
    static let maxDepth = 256

    /// What an expression yields, as far as the compiler can tell.
    indirect enum Shape {
        case scalar
        case object
        case record(EntityDescription)
        case collection(Shape)

        var entity: EntityDescription? {
            switch self {
            case .record(let e): e
            case .collection(let inner): inner.entity
            default: nil
            }
        }

        var isCollection: Bool { if case .collection = self { true } else { false } }
    }

    struct Scope {
        let name: String
        let index: Int
        let shape: Shape
    }

    /// What is being compiled; printed only into error messages.
    enum Subject {
        case predicate(FetchPredicate)
        case expression(FetchExpression)
    }

    let entity: EntityDescription
    let subject: Subject
    let now: Date
    var memoCount = 0
    var variableCount = 0
    var scopes: [Scope] = []
    var depth = 0

    init(entity: EntityDescription, subject: Subject) {
        self.entity = entity
        self.subject = subject
        self.now = Date()
    }

    /// The format string of what is being compiled.
    var source: String {
        switch subject {
        case .predicate(let p): p.description
        case .expression(let e): e.description
        }
    }

    func invalid(_ reason: String, key: String? = nil) -> ObjectGraphError {
        PredicateErrors.invalid(reason, entity: entity, predicate: source, key: key)
    }

    mutating func enter() throws {
        depth += 1
        if depth > Self.maxDepth {
            throw PredicateErrors.tooDeep(
                limit: Self.maxDepth, entity: entity,
                predicate: source)
        }
    }

    /// Compiles `predicate`, evaluated on records (or values) of shape `current`.
    mutating func compile(_ predicate: FetchPredicate, current: Shape) throws -> PredicateNode {
        try enter()
        defer { depth -= 1 }
        switch predicate.kind {
        case .truePredicate: return .constant(true)
        case .falsePredicate: return .constant(false)
        case .and(let items): return .and(try items.map { try compile($0, current: current) })
        case .or(let items): return .or(try items.map { try compile($0, current: current) })
        case .not(let inner): return .not(try compile(inner, current: current))
        case .comparison(let c): return try compile(c, current: current)
        }
    }

    private mutating func compile(_ c: FetchPredicate.Comparison, current: Shape) throws
        -> PredicateNode
    {
        let folding = StringFolding(c.options)
        let (right, _) = try compile(c.right, current: current)
        if case .constant(let constant) = right,
            let fast = try fastPath(
                c, constant: constant, folding: folding,
                current: current)
        {
            return fast
        }
        let (left, leftShape) = try compile(c.left, current: current)
        var quantifier: PredicateQuantifier =
            switch c.modifier {
            case .direct: .direct
            case .any: .any
            case .all: .all
            }
        if quantifier == .direct, case .path(_, let steps, nil) = left, leftShape.isCollection,
            steps.contains(where: { if case .toMany = $0 { true } else { false } })
        {
            let endsAtToMany = if case .toMany = steps.last { true } else { false }
            if !(c.operatorType == .contains && endsAtToMany) { quantifier = .any }
        }
        var constantTest: PredicateTest?
        if case .constant(let constant) = right {
            constantTest = PredicateTest(c.operatorType, folding, constant: constant)
        }
        return .general(
            GeneralComparison(
                left: left, right: right, op: c.operatorType, folding: folding,
                quantifier: quantifier, constantTest: constantTest))
    }

    /// `key.path op constant` where the path starts at the current record and holds only
    /// attributes and relationships: compiled to slot reads with the test at the end.
    private mutating func fastPath(
        _ c: FetchPredicate.Comparison, constant: PredicateConstant,
        folding: StringFolding, current: Shape
    ) throws -> PredicateNode? {
        if case .evaluatedObject = c.left.kind, case .record = current {
            return .evaluatedObject(PredicateTest(c.operatorType, folding, constant: constant))
        }
        guard case .keyPath(let base, let components) = c.left.kind, let start = current.entity,
            case .record = current, isCurrentRecord(base),
            !components.contains(where: { $0.hasPrefix("@") })
        else { return nil }
        let steps = try resolve(components, from: .record(start)).steps
        guard let last = steps.last else { return nil }
        let crossesToMany = steps.contains { if case .toMany = $0 { true } else { false } }
        if c.operatorType == .contains, c.modifier == .direct, case .toMany = last { return nil }
        let all = c.modifier == .all && crossesToMany
        let test = PredicateTest(c.operatorType, folding, constant: constant)
        // A nil to-one gives nil, tested as such; past it, a to-many still to cross gives an
        // empty collection instead, where `ANY` is false and `ALL` true.
        let ifNil = test.test(.null)
        var toManyFollows = false
        var node: PredicateNode
        switch last {
        case .attribute(let slot): node = Self.attributeNode(slot, test)
        case .toOne(let slot):
            node = .toOne(slot: slot, node: .evaluatedObject(test), ifNil: ifNil, memo: nil)
        case .toMany(let slot):
            node = .toMany(slot: slot, node: .evaluatedObject(test), all: all)
            toManyFollows = true
        }
        for step in steps.dropLast().reversed() {
            switch step {
            case .toOne(let slot):
                node = .toOne(
                    slot: slot, node: node, ifNil: toManyFollows ? all : ifNil,
                    memo: isCheap(node) ? nil : nextMemo())
            case .toMany(let slot):
                node = .toMany(slot: slot, node: node, all: all)
                toManyFollows = true
            case .attribute:
                return nil
            }
        }
        return node
    }

    /// Whether `base` denotes the record being evaluated: `SELF`, or the variable of the
    /// innermost `SUBQUERY` over objects.
    private func isCurrentRecord(_ base: FetchExpression) -> Bool {
        switch base.kind {
        case .evaluatedObject: return true
        case .variable(let name):
            guard let scope = scopes.last, scope.name == name, case .record = scope.shape else {
                return false
            }
            return true
        default: return false
        }
    }

    /// The node testing the attribute in `slot`, specialised for the commonest tests.
    private static func attributeNode(_ slot: Int, _ test: PredicateTest) -> PredicateNode {
        switch test.fast {
        case .number(let constant):
            if let op = PredicateOrderTest(test.op) {
                return .attributeNumber(slot: slot, op, constant)
            }
        case .date(let t):
            if let op = PredicateOrderTest(test.op) { return .attributeDate(slot: slot, op, t) }
        case .string(let s):
            return .attributeString(slot: slot, equal: test.op == .equalTo, s)
        case .none:
            break
        }
        return .attribute(slot: slot, test)
    }

    /// Whether re-running `node` costs less than a memo lookup.
    private func isCheap(_ node: PredicateNode) -> Bool {
        switch node {
        case .evaluatedObject, .attributeNumber, .attributeDate, .attributeString: return true
        case .attribute(_, let test):
            guard test.folding.isIdentity else { return false }
            switch test.op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan,
                .greaterThanOrEqualTo,
                .between:
                return true
            case .in:
                if case .list(let items, _) = test.operand { return items.count <= 4 }
                return false
            default: return false
            }
        default: return false
        }
    }

    private mutating func nextMemo() -> Int {
        memoCount += 1
        return memoCount - 1
    }
}
