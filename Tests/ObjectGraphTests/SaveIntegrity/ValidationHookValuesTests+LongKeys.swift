import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A class whose per-key hook records every call (key and value) and throws for the keys
    /// in `refusing`. Its keys are longer than a small string holds, so the key the hook gets
    /// is a string with storage.
    final class HookGauge: ManagedObject {
        @Attribute var labelWithALongerName: String?
        @Attribute var readingWithALongerName: Double
        @Attribute var takenAtWithALongerName: Date?
        @Attribute var serialWithALongerName: UUID?
        @Attribute var enabledWithALongerName: Bool
        @Attribute var priceWithALongerName: Decimal
        @Attribute var countWithALongerName16: Int16
        @Attribute var countWithALongerName32: Int32
        @Attribute var countWithALongerName64: Int64
        @Attribute var ratioWithALongerName: Float
        @Attribute var blobWithALongerName: Data?
        @Attribute var linkWithALongerName: URL?
        @Attribute var codeWithALongerName: String?
        @Attribute var mandatoryWithALongerName: String?
        @Relationship var ownerWithALongerName: HookPanel?
        @Relationship var partsWithALongerName: Set<HookPanel>
        @Relationship var stepsWithALongerName: [HookPanel]

        /// Every hook call, in order.
        var calls: [(key: String, value: Any?)] = []
        /// The keys whose hook throws.
        var refusing: Set<String> = []

        override func validate(_ value: Any?, forKey key: String) throws {
            calls.append((key, value))
            if refusing.contains(key) {
                throw ObjectGraphError.validationError(
                    "HookGauge.\(key) refused by the hook", object: self, key: key)
            }
            try super.validate(value, forKey: key)
        }
    }

    final class HookPanel: ManagedObject {
        @Attribute var name: String?
    }

    static func hookGauges() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Gauge", managedObjectClass: HookGauge.self,
                properties: [
                    A(name: "labelWithALongerName", type: .string),
                    A(name: "readingWithALongerName", type: .double, defaultValue: .double(0)),
                    A(name: "takenAtWithALongerName", type: .date),
                    A(name: "serialWithALongerName", type: .uuid),
                    A(
                        name: "enabledWithALongerName", type: .boolean,
                        defaultValue: .boolean(false)),
                    A(name: "priceWithALongerName", type: .decimal, defaultValue: .decimal(0)),
                    A(name: "countWithALongerName16", type: .integer16, defaultValue: .integer(0)),
                    A(name: "countWithALongerName32", type: .integer32, defaultValue: .integer(0)),
                    A(name: "countWithALongerName64", type: .integer64, defaultValue: .integer(0)),
                    A(name: "ratioWithALongerName", type: .float, defaultValue: .float(0)),
                    A(name: "blobWithALongerName", type: .binaryData),
                    A(name: "linkWithALongerName", type: .uri),
                    A(name: "codeWithALongerName", type: .string, maxLength: 3),
                    A(name: "mandatoryWithALongerName", type: .string, isOptional: false),
                    R(name: "ownerWithALongerName", destination: "Panel"),
                    R(name: "partsWithALongerName", destination: "Panel", isToMany: true),
                    R(
                        name: "stepsWithALongerName", destination: "Panel", isToMany: true,
                        isOrdered: true),
                ]),
            E(
                name: "Panel", managedObjectClass: HookPanel.self,
                properties: [A(name: "name", type: .string)]),
        ])
    }
}

/// The hook with keys longer than a small string holds: every value as `value(forKey:)` gives
/// it, broken rules skipping their keys, and the errors combined in slot order.
extension SaveIntegrity.ValidationHookValuesTests {
    typealias Gauge = IntegrityModels.HookGauge
    typealias Panel = IntegrityModels.HookPanel

    /// A gauge holding a value of every kind, its rules passing.
    private static func filled(_ context: ManagedObjectContext) -> Gauge {
        let gauge = Gauge(context: context)
        gauge.labelWithALongerName = "a label long enough to live in its own storage"
        gauge.readingWithALongerName = 2.5
        gauge.takenAtWithALongerName = Date(timeIntervalSince1970: 1_700_000_000)
        gauge.serialWithALongerName = UUID(uuidString: "8E0A1B7C-3D2F-4A5B-9C6D-7E8F9A0B1C2D")
        gauge.enabledWithALongerName = true
        gauge.priceWithALongerName = Decimal(string: "12.34")!
        gauge.countWithALongerName16 = -16
        gauge.countWithALongerName32 = 32
        gauge.countWithALongerName64 = 1 << 40
        gauge.ratioWithALongerName = 0.5
        gauge.blobWithALongerName = Data([1, 2, 3])
        gauge.linkWithALongerName = URL(string: "https://example.com/gauge")
        gauge.codeWithALongerName = "abc"
        gauge.mandatoryWithALongerName = "present"
        let owner = Panel(context: context)
        let part = Panel(context: context)
        gauge.ownerWithALongerName = owner
        gauge.partsWithALongerName = [part]
        gauge.stepsWithALongerName = [part, owner]
        return gauge
    }

    /// Each call's value against `value(forKey:)`: the same type and the same value.
    private static func expectValuesAsValueForKey(
        _ gauge: Gauge, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (key, value) in gauge.calls {
            let expected = gauge.value(forKey: key)
            #expect(
                value.map { "\(type(of: $0))" } == expected.map { "\(type(of: $0))" },
                "\(key)", sourceLocation: sourceLocation)
            #expect(
                String(describing: value) == String(describing: expected), "\(key)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreKind.all)
    func theHookGetsEveryKeyInOrderWithTheValueValueForKeyGives(kind: StoreKind) throws {
        let stack = try Stack(IntegrityModels.hookGauges(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let gauge = Self.filled(context)
            try context.save()
            #expect(gauge.calls.map(\.key) == gauge.entity.properties.map(\.name))
            Self.expectValuesAsValueForKey(gauge)
            #expect(gauge.calls[0].value as? String == gauge.labelWithALongerName)
            #expect(gauge.calls[1].value as? Double == 2.5)
            #expect(gauge.calls[6].value as? Int16 == -16)
            #expect(gauge.calls[8].value as? Int64 == 1 << 40)
            #expect(gauge.calls[14].value as? Panel === gauge.ownerWithALongerName)
            #expect(
                (gauge.calls[16].value as? [ManagedObject])?.map(ObjectIdentifier.init)
                    == gauge.stepsWithALongerName.map(ObjectIdentifier.init))
        }
    }

    @Test(arguments: StoreKind.all)
    func nilValuesAndEmptyRelationshipsReachTheHookAsValueForKeyGivesThem(kind: StoreKind)
        throws
    {
        let stack = try Stack(IntegrityModels.hookGauges(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let gauge = Gauge(context: context)
            gauge.mandatoryWithALongerName = "present"
            try context.save()
            #expect(gauge.calls.map(\.key) == gauge.entity.properties.map(\.name))
            Self.expectValuesAsValueForKey(gauge)
            #expect(gauge.calls[0].value == nil)
            #expect(gauge.calls[14].value == nil)
            // An update validates again, from the saved values.
            gauge.calls = []
            gauge.readingWithALongerName = 7
            try context.save()
            #expect(gauge.calls.map(\.key) == gauge.entity.properties.map(\.name))
            Self.expectValuesAsValueForKey(gauge)
        }
    }

    @Test(arguments: StoreKind.all)
    func aBrokenRuleSkipsTheHookForItsKeyAndCombinesWithTheHooksErrors(kind: StoreKind)
        throws
    {
        let stack = try Stack(IntegrityModels.hookGauges(), on: kind)
        let context = stack.context()
        context.performAndWait {
            let gauge = Self.filled(context)
            gauge.codeWithALongerName = "too long"
            gauge.mandatoryWithALongerName = nil
            gauge.refusing = ["labelWithALongerName", "ownerWithALongerName"]
            let error = expectNSError { try context.save() }
            #expect(error?.code == NSValidationMultipleErrorsError)
            let detailed = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
            #expect(
                detailed.map { $0.userInfo[NSValidationKeyErrorKey] as? String } == [
                    "labelWithALongerName", "codeWithALongerName",
                    "mandatoryWithALongerName", "ownerWithALongerName",
                ])
            #expect(
                detailed.map(\.code) == [
                    NSManagedObjectValidationError, NSValidationStringTooLongError,
                    NSValidationMissingMandatoryPropertyError, NSManagedObjectValidationError,
                ])
            let skipped: Set = ["codeWithALongerName", "mandatoryWithALongerName"]
            #expect(
                gauge.calls.map(\.key)
                    == gauge.entity.properties.map(\.name).filter { !skipped.contains($0) })
            Self.expectValuesAsValueForKey(gauge)
        }
    }

    @Test func oneErrorAloneIsThrownAsItIs() throws {
        let stack = try Stack(IntegrityModels.hookGauges(), on: .inMemory)
        let context = stack.context()
        context.performAndWait {
            let gauge = Self.filled(context)
            gauge.refusing = ["priceWithALongerName"]
            let error = expectNSError { try context.save() }
            #expect(error?.code == NSManagedObjectValidationError)
            #expect(
                error?.userInfo[NSValidationKeyErrorKey] as? String == "priceWithALongerName")
        }
    }
}
