import Foundation

extension PredicateCompiler {
    /// Compiles `expression`, evaluated with `current` as `SELF`.
    mutating func compile(_ expression: FetchExpression, current: Shape) throws -> (
        ExpressionNode, Shape
    ) {
        try enter()
        defer { depth -= 1 }
        switch expression.kind {
        case .constant(let v):
            return (.constant(.value(v)), .scalar)
        case .object(let id):
            return (.constant(.object(id)), .object)
        case .objectURI(let url):
            return (.constant(.object(try resolve(url.absoluteString))), .object)
        case .evaluatedObject:
            guard case .record = current else {
                throw invalid(
                    "SELF inside a SUBQUERY over values has no object; use the subquery variable")
            }
            return (.evaluatedObject, current)
        case .variable(let name):
            guard let scope = scopes.last(where: { $0.name == name }) else {
                throw invalid(
                    "$\(name) has no value; bind it with SUBQUERY or withSubstitutionVariables",
                    key: name)
            }
            return (.variable(scope.index), scope.shape)
        case .keyPath(let base, let components):
            let (baseNode, baseShape) = try compile(base, current: current)
            let resolved = try resolve(components, from: baseShape)
            return (
                .path(base: baseNode, steps: resolved.steps, collection: resolved.collection),
                resolved.shape
            )
        case .aggregate(let elements):
            let compiled = try elements.map { try compile($0, current: current) }
            let shape = Shape.collection(compiled.first?.1 ?? .scalar)
            var constants: [PredicateConstant] = []
            for (node, _) in compiled {
                guard case .constant(let c) = node else {
                    return (.aggregate(compiled.map(\.0)), shape)
                }
                constants.append(c)
            }
            return (.constant(.list(constants)), shape)
        case .function(let function, let arguments):
            return try compile(function, arguments, current: current)
        case .subquery(let collection, let variable, let predicate):
            let (collectionNode, collectionShape) = try compile(collection, current: current)
            let element: Shape =
                if case .collection(let inner) = collectionShape { inner } else { collectionShape }
            let index = variableCount
            variableCount += 1
            scopes.append(Scope(name: variable, index: index, shape: element))
            defer { scopes.removeLast() }
            let inner: Shape = if case .record = element { element } else { .scalar }
            let node = try compile(predicate, current: inner)
            let overRecords = if case .record = element { true } else { false }
            return (
                .subquery(
                    collection: collectionNode, variable: index, predicate: node,
                    overRecords: overRecords),
                .collection(element)
            )
        case .conditional(let condition, let whenTrue, let whenFalse):
            let test = try compile(condition, current: current)
            let (a, shape) = try compile(whenTrue, current: current)
            let (b, _) = try compile(whenFalse, current: current)
            return (.conditional(test, a, b), shape)
        }
    }

    private mutating func compile(
        _ function: FetchFunction, _ arguments: [FetchExpression],
        current: Shape
    ) throws -> (ExpressionNode, Shape) {
        guard arguments.count == function.arity else {
            throw invalid(
                "\(function.name ?? function.rawValue) takes \(function.arity) argument(s), "
                    + "not \(arguments.count)")
        }
        switch function {
        case .now:
            return (.constant(.value(.date(now))), .scalar)
        case .cast:
            guard case .constant(.string(let typeName)) = arguments[1].kind,
                let type = PredicateCast.named(typeName)
            else {
                throw invalid(
                    "CAST needs a type name such as \"NSDate\", \"NSNumber\", \"NSDecimalNumber\", "
                        + "\"NSString\", \"NSUUID\", \"NSURL\", \"NSData\" or \"NSManagedObjectID\""
                )
            }
            let (operand, _) = try compile(arguments[0], current: current)
            if type == .objectID {
                guard case .constant(.value(.string(let uri))) = operand else {
                    throw invalid("CAST to NSManagedObjectID needs a constant URI string")
                }
                return (.constant(.object(try resolve(uri))), .object)
            }
            if case .constant(.value(let v)) = operand {
                let converted = type.convert(v)
                guard !converted.isNull || v.isNull else {
                    throw invalid("cannot CAST \(EchoedText.capped("\(v)")) to \(type.rawValue)")
                }
                return (.constant(.value(converted)), .scalar)
            }
            return (.cast(type, operand), .scalar)
        default:
            let compiled = try arguments.map { try compile($0, current: current) }
            let shape: Shape
            switch function {
            case .index, .first, .last:
                if case .collection(let inner) = compiled[0].1 {
                    shape = inner
                } else {
                    shape = .scalar
                }
            case .mode: shape = .collection(.scalar)
            case .noIndex: shape = compiled[0].1
            default: shape = .scalar
            }
            return (.function(function, compiled.map(\.0)), shape)
        }
    }

    /// Resolves key components from a base of shape `start`: property names become slots,
    /// and a collection operator ends the path (what follows it applies to each element).
    func resolve(_ components: [String], from start: Shape) throws
        -> (steps: [PathStep], collection: FetchFunction?, shape: Shape)
    {
        let keyPath = components.joined(separator: ".")
        var shape = start
        var steps: [PathStep] = []
        for (i, key) in components.enumerated() {
            if key.hasPrefix("@") {
                return try resolveOperator(
                    key, rest: Array(components[(i + 1)...]), shape: shape, steps: steps,
                    keyPath: keyPath)
            }
            guard let entity = shape.entity else {
                throw invalid(
                    "'\(key)' in key path '\(keyPath)' is applied to a value, not an object",
                    key: key)
            }
            guard let property = entity.propertiesByName[key] else {
                throw PredicateErrors.unknownKey(
                    key, entity: entity, keyPath: keyPath, predicate: source)
            }
            let inCollection = shape.isCollection
            if let relationship = property as? RelationshipDescription {
                guard let destination = relationship.destinationEntity else {
                    throw invalid(
                        "relationship \(relationship) is not linked into a model", key: key)
                }
                if relationship.isToMany {
                    steps.append(.toMany(property.index))
                    shape = .collection(.record(destination))
                } else {
                    steps.append(.toOne(property.index))
                    shape = inCollection ? .collection(.record(destination)) : .record(destination)
                }
            } else {
                steps.append(.attribute(property.index))
                shape = inCollection ? .collection(.scalar) : .scalar
            }
        }
        return (steps, nil, shape)
    }

    private func resolveOperator(
        _ key: String, rest: [String], shape: Shape, steps: [PathStep],
        keyPath: String
    ) throws -> (steps: [PathStep], collection: FetchFunction?, shape: Shape) {
        let function: FetchFunction
        switch key {
        case "@count": function = .count
        case "@sum": function = .sum
        case "@avg": function = .average
        case "@min": function = .min
        case "@max": function = .max
        default:
            throw invalid(
                "unsupported collection operator \(key) in key path '\(EchoedText.capped(keyPath))'",
                key: key)
        }
        guard shape.isCollection else {
            throw invalid(
                "\(key) in key path '\(keyPath)' needs a to-many relationship or a collection before it",
                key: key)
        }
        guard function != .count || rest.isEmpty else {
            throw invalid(
                "nothing may follow @count in key path '\(EchoedText.capped(keyPath))'", key: key)
        }
        guard !rest.contains(where: { $0.hasPrefix("@") }) else {
            throw invalid(
                "key path '\(EchoedText.capped(keyPath))' has more than one collection operator",
                key: key)
        }
        var allSteps = steps
        var element = shape
        if !rest.isEmpty {
            let resolved = try resolve(rest, from: shape)
            allSteps += resolved.steps
            element = resolved.shape
        }
        if function != .count, element.entity != nil {
            throw invalid(
                "\(key) needs values; name an attribute, as in 'transactions\(key).amount' "
                    + "(key path '\(keyPath)')", key: key)
        }
        return (allSteps, function, .scalar)
    }

    /// The object ID written as `x-coredata://STORE/Entity/pN`, resolved in the entity's model.
    func resolve(_ uri: String) throws -> ManagedObjectID {
        let prefix = "x-coredata://"
        guard uri.hasPrefix(prefix), let model = entity.managedObjectModel else {
            throw invalid(
                "'\(EchoedText.capped(uri))' is not an object URI (x-coredata://STORE/Entity/pN)")
        }
        let parts = uri.dropFirst(prefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let target = model.entitiesByName[String(parts[1])] else {
            throw invalid("'\(EchoedText.capped(uri))' names no entity of the model")
        }
        guard !parts[0].isEmpty, parts[2].first == "p", let key = Int64(parts[2].dropFirst()) else {
            throw invalid(
                "'\(uri)' is not a permanent object ID; pass unsaved objects as arguments instead")
        }
        return ManagedObjectID(entity: target, storeIdentifier: String(parts[0]), primaryKey: key)
    }
}
