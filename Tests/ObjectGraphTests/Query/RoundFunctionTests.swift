import Foundation
import ObjectGraph
import Testing

/// `round(x, scale)`: rounding to decimal places, halves away from zero.
///
/// Core Data's `NSExpression` lists no rounding function (its functions are those of
/// `init(forFunction:arguments:)`: https://developer.apple.com/documentation/foundation/nsexpression/init(forfunction:arguments:)),
/// so the name follows its selector style; the rounding is `NSDecimalNumber.RoundingMode.plain`
/// ("when caught halfway between two positive numbers, round up; when caught between two
/// negative numbers, round down":
/// https://developer.apple.com/documentation/foundation/nsdecimalnumber/roundingmode/plain).
@Suite struct RoundFunctionTests {
    /// Amounts seeded before each batch, in primary-key order.
    private static let amounts = ["2.345", "10.125", "0.014", "19.99"]

    private func seeded(_ kind: StoreKind) throws -> (Stack, ManagedObjectContext) {
        let stack = try Stack(try ExpenseModel.make(), on: kind)
        for (i, amount) in Self.amounts.enumerated() {
            try stack.seed(
                "Transaction",
                [
                    "id": UUID(), "amount": Decimal(string: amount)!,
                    "date": Date(timeIntervalSinceReferenceDate: Double(i)),
                ])
        }
        return (stack, stack.context())
    }

    private func amounts(_ stack: Stack) throws -> [Decimal] {
        let slot = stack.model.entitiesByName["Transaction"]!.propertiesByName["amount"]!.index
        return try stack.rows("Transaction").map { row in
            guard case .decimal(let d) = row.values[slot].attributeValue else { return -1 }
            return d
        }
    }

    @Test(arguments: StoreKind.all)
    func aBatchUpdateRoundsToCentsHalfAwayFromZero(_ kind: StoreKind) throws {
        let (stack, context) = try seeded(kind)
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.propertiesToUpdate = [
                "amount": try FetchExpression(format: "round(amount * 1.2, 2)")
            ]
            update.resultType = .updatedObjectIDsResultType
            let ids = try context.execute(update).result as? [ManagedObjectID]
            #expect(ids?.count == Self.amounts.count)
        }
        // 2.814 → 2.81, 12.15 → 12.15, 0.0168 → 0.02, 23.988 → 23.99
        let expected = ["2.81", "12.15", "0.02", "23.99"].map { Decimal(string: $0)! }
        #expect(try amounts(stack) == expected)
        #expect(try amounts(try stack.reopen()) == expected)
    }

    @Test(arguments: StoreKind.all)
    func exactHalvesRoundAwayFromZeroOnBothSides(_ kind: StoreKind) throws {
        let (stack, context) = try seeded(kind)
        func update(_ format: String) throws {
            try context.performAndWait {
                let update = BatchUpdateRequest(entityName: "Transaction")
                update.propertiesToUpdate = ["amount": try FetchExpression(format: format)]
                _ = try context.execute(update)
            }
        }
        // Batch updates bypass validation: the negative amounts are only for the test.
        try update("0 - amount")
        try update("round(amount, 2)")
        #expect(
            try amounts(stack)
                == ["-2.35", "-10.13", "-0.01", "-19.99"].map { Decimal(string: $0)! })
        try update("round(0 - amount * 10, -1)")
        #expect(try amounts(stack) == ["20", "100", "0", "200"].map { Decimal(string: $0)! })
    }

    @Test(arguments: StoreKind.all)
    func aPredicateFiltersOnARoundedValueInTheStore(_ kind: StoreKind) throws {
        let (stack, _) = try seeded(kind)
        let entity = stack.model.entitiesByName["Transaction"]!
        let rows = try stack.store.fetch(
            StoreFetchRequest(
                entity: entity, predicate: try FetchPredicate(format: "round(amount, 1) == 10.1")))
        #expect(rows.count == 1)
    }

    /// Each format evaluates to true on any record.
    @Test(arguments: [
        "round(2.345, 2) == 2.35", "round(-2.345, 2) == -2.35", "round(2.344, 2) == 2.34",
        "round(2.5, 0) == 3", "round(-2.5, 0) == -3", "round(1.45, 1) == 1.5",
        "round(1250, -2) == 1300", "round(-1250, -2) == -1300", "round(1249, -2) == 1200",
        "round(7, 2) == 7", "round(2.5e0, 0) == 3", "round(-0.125e0, 2) == -0.13",
        "round(12.5, 'two') == nil", "round('x', 2) == nil", "round(nil, 2) == nil",
        "round:toScale:(2.345, 2) == 2.35", "ROUND(0.005, 2) == 0.01",
    ])
    func roundGivesTheNearestValueWithHalvesAwayFromZero(_ format: String) throws {
        let (stack, _) = try seeded(.inMemory)
        let entity = stack.model.entitiesByName["Transaction"]!
        let rows = try stack.store.fetch(
            StoreFetchRequest(entity: entity, predicate: try FetchPredicate(format: format)))
        #expect(rows.count == Self.amounts.count, "\(format)")
    }

    @Test func roundTakesTwoArgumentsAndPrintsAsACall() throws {
        #expect(throws: ObjectGraphError.self) { try FetchExpression(format: "round(2.5)") }
        let e = try FetchExpression(format: "round(amount * 1.2, 2)")
        #expect(e.description == "round(amount * 1.2, 2)")
        #expect(try FetchExpression(format: e.description) == e)
        #expect(FetchFunction.round.rawValue == "round:toScale:")
        #expect(
            FetchExpression(
                forFunction: "round:toScale:", arguments: [Decimal(string: "2.345")!, 2]
            ).description
                == "round(2.345, 2)")
    }
}
