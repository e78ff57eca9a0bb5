import Foundation
import Testing

@testable import ObjectGraph

/// Hostile or unusual Xcode model files: refused with a clear error, never a crash.
@Suite struct XcodeModelInputLimitsTests {
    /// Writes `xml` as the `contents` of a fresh `.xcdatamodel` and loads it.
    static func load(_ xml: String) throws -> ManagedObjectModel {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-xml-\(UUID().uuidString)/Deep.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        return try ManagedObjectModel(contentsOf: folder)
    }

    /// `<model>` holding `levels - 1` nested `<entity>` elements.
    static func nested(_ levels: Int) -> String {
        "<?xml version=\"1.0\"?>\n<model>"
            + String(repeating: "<entity name=\"E\">", count: levels - 1)
            + String(repeating: "</entity>", count: levels - 1) + "</model>"
    }

    @Test func aModelNested60000LevelsDeepIsRefusedWithTheLimitNamed() throws {
        // This input overflowed the stack (SIGSEGV) before the reader had a depth limit.
        #expect {
            try Self.load(Self.nested(60_000))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.reason == .modelXMLSyntax && e?.line == 2
                && e?.message.contains("nested at most \(XMLNode.maximumDepth) deep") == true
        }
    }

    @Test func theDepthLimitIsExact() throws {
        #expect(throws: ObjectGraphError.self) {
            try Self.load(Self.nested(XMLNode.maximumDepth + 1))
        }
        // At the limit the XML parses; the reader then judges the content (nested entities
        // are not a model element, so it names the first one it meets).
        do {
            _ = try Self.load(Self.nested(XMLNode.maximumDepth))
        } catch let error as ObjectGraphError {
            #expect(!error.message.contains("nested at most"), "\(error.message)")
        }
    }
}

/// What Xcode compiles loads, with a warning for what the engine cannot honour.
///
/// Indexes are advisory in Core Data ("Compound indexes are only used by stores that natively
/// support compound indices—setting them is only advisory", `NSEntityDescription.compoundIndexes`
/// documentation), so an index element the engine could never use (a to-many relationship, a
/// transient or unknown property) is dropped with a warning, never a reason to refuse the model.
@Suite struct XcodeModelLeniencyTests {
    static func model(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
    }

    static let owner = """
        <entity name="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        """

    static let item = """
        <entity name="Item" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
        </entity>
        """

    @Test func aCompoundIndexNamingAToManyLoadsWithAWarningAndWithoutThatElement() throws {
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                Self.owner + """
                        <compoundIndexes>
                            <compoundIndex><index value="name"/><index value="items"/></compoundIndex>
                            <compoundIndex><index value="items"/></compoundIndex>
                        </compoundIndexes>
                    </entity>
                    """ + Self.item))
        let owner = try #require(model[entityName: "Owner"])
        #expect(owner.indexes.map(\.name) == ["compound_name_items"])
        #expect(owner.indexes.first?.elements.map(\.propertyName) == ["name"])
        let warnings = model.loadWarnings.filter { $0.contains("items") }
        #expect(warnings.count == 3, "\(model.loadWarnings)")
        #expect(warnings.allSatisfy { $0.contains("Deep.xcdatamodel/contents:") })
        #expect(
            warnings.first?.contains(
                "Owner: index compound_name_items: items is a to-many relationship, which cannot be indexed; the element is dropped"
            ) == true, "\(warnings)")
        #expect(warnings.last?.contains("index compound_items has no element left") == true)
    }

    @Test func fetchIndexElementsOverTransientUnknownOrToManyPropertiesAreDroppedWithWarnings()
        throws
    {
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                Self.owner + """
                        <fetchIndex name="byName">
                            <fetchIndexElement property="name" type="Binary" order="ascending"/>
                            <fetchIndexElement property="scratch" type="Binary" order="ascending"/>
                            <fetchIndexElement property="gone" type="Binary" order="ascending"/>
                            <fetchIndexElement property="items" type="Binary" order="descending"/>
                        </fetchIndex>
                        <fetchIndex name="byName">
                            <fetchIndexElement property="name" type="Binary" order="descending"/>
                        </fetchIndex>
                    </entity>
                    """ + Self.item))
        let owner = try #require(model[entityName: "Owner"])
        #expect(owner.indexes.count == 1)
        #expect(owner.indexes.first?.elements.map(\.propertyName) == ["name"])
        #expect(owner.indexes.first?.elements.first?.isAscending == true)
        let text = model.loadWarnings.joined(separator: "\n")
        #expect(text.contains("scratch is transient"), "\(text)")
        #expect(text.contains("gone is not a property of Owner"), "\(text)")
        #expect(text.contains("items is a to-many relationship"), "\(text)")
        #expect(text.contains("a second index named byName"), "\(text)")
    }

    @Test func anIndexOverAnInheritedPropertyIsKeptWithoutAWarning() throws {
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                Self.owner + "</entity>" + Self.item + """
                    <entity name="Special" parentEntity="Item" syncable="YES">
                        <attribute name="level" optional="YES" attributeType="Integer 32"/>
                        <compoundIndexes>
                            <compoundIndex><index value="title"/><index value="owner"/><index value="level"/></compoundIndex>
                        </compoundIndexes>
                    </entity>
                    """))
        #expect(
            model[entityName: "Special"]?.indexes.first?.elements.map(\.propertyName) == [
                "title", "owner", "level",
            ])
        #expect(model.loadWarnings.isEmpty, "\(model.loadWarnings)")
    }

    @Test func externalStorageLeftOnANonBinaryAttributeIsIgnoredWithAWarning() throws {
        // Xcode keeps the flag in the XML when a Binary attribute's type is changed.
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                """
                <entity name="Photo" syncable="YES">
                    <attribute name="caption" optional="YES" attributeType="String" allowsExternalBinaryDataStorage="YES"/>
                </entity>
                """))
        #expect(
            model[entityName: "Photo"]?.attributesByName["caption"]?.allowsExternalBinaryDataStorage
                == false)
        #expect(
            model.loadWarnings.contains {
                $0.contains(
                    "Photo.caption: allowsExternalBinaryDataStorage on a string attribute ignored")
            }, "\(model.loadWarnings)")
    }

    @Test func aMandatoryRelationshipToAnAbstractEntityWithoutSubentitiesLoadsWithAWarning() throws
    {
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                """
                <entity name="Drawing" syncable="YES">
                    <relationship name="shape" maxCount="1" deletionRule="Nullify" destinationEntity="Shape"/>
                </entity>
                <entity name="Shape" isAbstract="YES" syncable="YES">
                    <attribute name="area" optional="YES" attributeType="Double"/>
                </entity>
                """))
        #expect(model[entityName: "Drawing"]?.relationshipsByName["shape"]?.isOptional == false)
        #expect(
            model.loadWarnings.contains {
                $0.contains("Drawing.shape is mandatory but its destination Shape is abstract")
            }, "\(model.loadWarnings)")
    }

    /// Xcode 15's composite attributes compile; they load as opaque data with a warning.
    @Test func aCompositeAttributeLoadsAsOpaqueDataWithAWarning() throws {
        let model = try XcodeModelInputLimitsTests.load(
            Self.model(
                """
                <entity name="Person" syncable="YES">
                    <attribute name="home" optional="YES" attributeType="Composite" composite="Address"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <compositeAttribute name="Address">
                    <attribute name="city" optional="YES" attributeType="String"/>
                </compositeAttribute>
                """))
        #expect(model[entityName: "Person"]?.attributesByName["home"]?.type == .binaryData)
        #expect(model.loadWarnings.count == 2, "\(model.loadWarnings)")
        #expect(
            model.loadWarnings.contains { $0.contains("Person.home: Composite attribute Address") })
        #expect(model.loadWarnings.contains { $0.contains("composite attribute type Address") })
    }
}
