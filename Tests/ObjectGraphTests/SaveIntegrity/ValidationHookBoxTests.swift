import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A hook that keeps every value it is given (copies of the boxes' contents), throws its
    /// own domain's error for the keys in `refusing`, and, for the key `nested`, validates
    /// `nested` (another object) from inside the hook.
    final class BoxKeeper: ManagedObject {
        @Attribute var title: String?
        @Attribute var amount: Double
        @Attribute var code: UUID?
        @Relationship var owner: HookPanel?

        /// Every call's key and value, in order.
        var kept: [(key: String, value: Any?)] = []
        /// The keys whose hook throws `TripRuleError(code: 7)`.
        var refusing: Set<String> = []
        /// An object validated from inside the hook for `title` (its errors are dropped).
        var nested: ManagedObject?
        /// Whether the next hook call for `title` sets `title` to `"changed"` and `amount` to
        /// 9 (once: the flag is cleared).
        var rewritesOnTitle = false

        override func validate(_ value: Any?, forKey key: String) throws {
            kept.append((key, value))
            if key == "title", let nested { try? nested.validateForInsert() }
            if key == "title", rewritesOnTitle {
                rewritesOnTitle = false
                (title, amount) = ("changed", 9)
            }
            if refusing.contains(key) { throw TripRuleError(code: 7) }
            try super.validate(value, forKey: key)
        }
    }

    /// `Keeper` (`title` at most 40 characters, `amount` at least 0, `code`, `owner`) and
    /// `Owner` (of class `HookPanel`).
    static func boxKeepers() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Keeper", managedObjectClass: BoxKeeper.self,
                properties: [
                    A(name: "title", type: .string, maxLength: 40),
                    A(
                        name: "amount", type: .double, defaultValue: .double(0),
                        minValue: .double(0)),
                    A(name: "code", type: .uuid),
                    R(name: "owner", destination: "Owner", inverse: "keepers"),
                ]),
            E(
                name: "Owner", managedObjectClass: HookPanel.self,
                properties: [
                    A(name: "name", type: .string),
                    R(name: "keepers", destination: "Keeper", inverse: "owner", isToMany: true),
                ]),
        ])
    }
}

extension SaveIntegrity {
    /// The values validation hands the per-key hook are held in one box per object, each
    /// freed when the next replaces it (see `HookValueBox`): what the hook keeps stays intact
    /// and equal to what was set, what it does not keep is freed (an object the hook saw is
    /// not kept alive by validation), a hook that throws for one key still gets the next keys'
    /// values, and a hook that validates another object from inside gets its own values back.
    @Suite struct ValidationHookBoxTests {
        typealias Keeper = IntegrityModels.BoxKeeper
        typealias Owner = IntegrityModels.HookPanel

        static let code = UUID(uuidString: "0B6E3F2A-9C1D-4E8B-A7F5-3D2C1B0A9E8F")!

        /// A keeper titled `title` (long enough for its own storage), `amount`, `code`, owned
        /// by `owner`.
        static func keeper(
            _ context: ManagedObjectContext, _ title: String, amount: Double = 1.5,
            owner: Owner?
        ) -> Keeper {
            let keeper = Keeper(context: context)
            (keeper.title, keeper.amount, keeper.code, keeper.owner) = (title, amount, code, owner)
            return keeper
        }

        /// Runs `body` on a new context over a stack of `boxKeepers()` on `kind`.
        func onKeepers(
            _ kind: StoreKind, _ body: (ManagedObjectContext) throws -> Void
        ) throws {
            let stack = try Stack(IntegrityModels.boxKeepers(), on: kind)
            let context = stack.context()
            try context.performAndWait { try body(context) }
        }

        /// The calls as `key=value`, an object by its `name`.
        static func described(_ kept: [(key: String, value: Any?)]) -> [String] {
            kept.map { call in
                guard let value = call.value else { return "\(call.key)=nil" }
                if let owner = value as? Owner { return "\(call.key)=\(owner.name ?? "?")" }
                return "\(call.key)=\(type(of: value))(\(value))"
            }
        }

        @Test(arguments: StoreKind.all)
        func theValuesTheHookKeepsStayIntactAfterTheSave(_ kind: StoreKind) throws {
            try onKeepers(kind) { context in
                let owner = Owner(context: context)
                owner.name = "the owner"
                let keepers = (0..<3).map {
                    Self.keeper(context, "a title long enough for storage \($0)", owner: owner)
                }
                try context.save()
                // A second save writes over the memory the first one's boxes used.
                for keeper in keepers { keeper.amount = 2 }
                try context.save()
                for (n, keeper) in keepers.enumerated() {
                    let call = [
                        "title=String(a title long enough for storage \(n))",
                        "amount=Double(1.5)", "code=UUID(\(Self.code))", "owner=the owner",
                    ]
                    let update = call.map {
                        $0 == "amount=Double(1.5)" ? "amount=Double(2.0)" : $0
                    }
                    #expect(Self.described(keeper.kept) == call + update)
                }
            }
        }

        @Test(arguments: StoreKind.all)
        func anObjectTheHookSawIsNotKeptAliveByValidation(_ kind: StoreKind) throws {
            try onKeepers(kind) { context in
                weak var seenOwner: Owner?
                do {
                    let owner = Owner(context: context)
                    owner.name = "let go"
                    let keeper = Self.keeper(context, "kept", owner: owner)
                    try context.save()
                    #expect(Self.described(keeper.kept).last == "owner=let go")
                    keeper.kept = []
                    seenOwner = owner
                }
                // The context lets go of its objects; nothing else holds the owner.
                context.reset()
                #expect(seenOwner == nil)
            }
        }

        @Test(arguments: StoreKind.all)
        func aHookThatThrowsForOneKeyGetsTheNextKeysValuesAndErrorsKeepTheirOrder(
            _ kind: StoreKind
        ) throws {
            try onKeepers(kind) { context in
                let owner = Owner(context: context)
                owner.name = "O"
                let first = Self.keeper(context, "first", amount: -1, owner: owner)
                first.refusing = ["title", "owner"]
                let second = Self.keeper(context, "second", owner: owner)
                second.refusing = ["code"]
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let detailed = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                // Objects in insertion order; each object's keys in slot order; the hook's
                // own domain's error unchanged, the rule's error (amount < 0) in its place.
                #expect(
                    detailed.map { "\($0.domain) \($0.code)" } == [
                        "TripRules 7", "\(NSCocoaErrorDomain) \(NSValidationNumberTooSmallError)",
                        "TripRules 7", "TripRules 7",
                    ])
                // Each error's message, key and value: the hook's errors carry only their
                // message, the rule's names the key and the value refused.
                #expect(
                    detailed.map { error in
                        let key = error.userInfo[NSValidationKeyErrorKey] as? String
                        let value = error.userInfo[NSValidationValueErrorKey]
                        return "\(error.localizedDescription) | \(key ?? "-") | "
                            + (value.map { "\(type(of: $0))(\($0))" } ?? "-")
                    } == [
                        "trip rule 7 broken | - | -",
                        "Keeper.amount must be at least 0.0; got -1.0 | amount | NSNumber(-1.0)",
                        "trip rule 7 broken | - | -", "trip rule 7 broken | - | -",
                    ])
                // The rule failed for `amount`: no hook call for it; the later keys' values
                // came after the hook threw.
                #expect(
                    Self.described(first.kept) == [
                        "title=String(first)", "code=UUID(\(Self.code))", "owner=O",
                    ])
                #expect(
                    Self.described(second.kept) == [
                        "title=String(second)", "amount=Double(1.5)",
                        "code=UUID(\(Self.code))", "owner=O",
                    ])
            }
        }

        @Test(arguments: StoreKind.all)
        func aValueTheHookKeepsOutlivesTheHooksOwnWritesAndLaterKeysSeeThem(_ kind: StoreKind)
            throws
        {
            try onKeepers(kind) { context in
                let original = "a title long enough for its own storage"
                let keeper = Self.keeper(context, original, owner: nil)
                keeper.rewritesOnTitle = true
                try context.save()
                // The kept title is the original string, intact after the save although the
                // hook wrote over the slot it came from; `amount`'s call got the new value.
                #expect(keeper.kept.first?.value as? String == original)
                #expect(
                    Self.described(keeper.kept) == [
                        "title=String(\(original))", "amount=Double(9.0)",
                        "code=UUID(\(Self.code))", "owner=nil",
                    ])
                #expect(keeper.title == "changed")
                #expect(keeper.amount == 9)
            }
        }

        @Test
        func anOptionalAnyHasTheLayoutOfAnAny() {
            // The box frees an `Any?`'s payload as the `Any` it is, at the same address.
            #expect(MemoryLayout<Any?>.size == MemoryLayout<Any>.size)
            #expect(MemoryLayout<Any?>.alignment == MemoryLayout<Any>.alignment)
        }

        @Test(arguments: StoreKind.all)
        func aHookThatValidatesAnotherObjectFromInsideGetsItsOwnValues(_ kind: StoreKind)
            throws
        {
            try onKeepers(kind) { context in
                let owner = Owner(context: context)
                owner.name = "O"
                let outer = Self.keeper(context, "outer title", amount: 3, owner: owner)
                let inner = Self.keeper(context, "inner title", amount: 4, owner: nil)
                outer.nested = inner
                try context.save()
                let innerCalls = [
                    "title=String(inner title)", "amount=Double(4.0)",
                    "code=UUID(\(Self.code))", "owner=nil",
                ]
                #expect(
                    Self.described(outer.kept) == [
                        "title=String(outer title)", "amount=Double(3.0)",
                        "code=UUID(\(Self.code))", "owner=O",
                    ])
                // Validated from outer's hook, then by the save.
                #expect(Self.described(inner.kept) == innerCalls + innerCalls)
            }
        }
    }
}
