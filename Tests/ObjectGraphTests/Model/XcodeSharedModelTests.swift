import Foundation
import Testing

@testable import ObjectGraph

@Suite(.enabled(if: SharedFixtures.available, "../shared/fixtures/xcdatamodels is absent"))
struct XcodeSharedModelTests {
    @Test func everySharedModelLoadsWithTheEntityCountOfSourcesMD() throws {
        let counts = try SharedFixtures.entityCounts()
        let files = SharedFixtures.modelFiles()
        #expect(files.count == 20)
        for file in files {
            let url = SharedFixtures.xcdatamodels.appendingPathComponent(file)
            do {
                let model = try ManagedObjectModel(contentsOf: url)
                #expect(model.entities.count == counts[file], "\(file)")
                #expect(model.entities.allSatisfy { $0.versionHash.count == 32 }, "\(file)")
                let copy = try ManagedObjectModel(jsonData: model.jsonData())
                #expect(
                    copy.entityVersionHashesByName == model.entityVersionHashesByName, "\(file)")
                #expect(copy.jsonData() == model.jsonData(), "\(file)")
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
    }
}

extension XcodeSharedModelTests {
    private static func fixture(_ name: String) -> URL {
        SharedFixtures.xcdatamodels.appendingPathComponent(name)
    }

    @Test func bundleReadsTheCurrentVersionOrTheOneAskedFor() throws {
        let swiftGen = try SharedFixtures.makeBundle(
            named: "Model",
            versions: [
                "Model": "SwiftGen__SwiftGen__Model.xml",
                "Model 2": "SwiftGen__SwiftGen__Model_2.xml",
            ],
            currentVersion: "SwiftGen__SwiftGen__Model.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: swiftGen.deletingLastPathComponent()) }
        #expect(try ManagedObjectModel(contentsOf: swiftGen).entities.count == 8)
        #expect(try ManagedObjectModel(contentsOf: swiftGen, version: "Model").entities.count == 3)
        #expect(
            try ManagedObjectModel(contentsOf: swiftGen, version: "Model 2.xcdatamodel").entities
                .count == 8)
        let folder = swiftGen.appendingPathComponent("Model.xcdatamodel")
        #expect(try ManagedObjectModel(contentsOf: folder).entities.count == 3)
        #expect(
            try ManagedObjectModel(contentsOf: folder.appendingPathComponent("contents")).entities
                .count == 3)

        let missing = ModelFixtures.error {
            _ = try ManagedObjectModel(contentsOf: swiftGen, version: "Model 9")
        }
        #expect(missing?.reason == .modelNotFound)
        #expect(
            missing?.message.contains(
                "has no version Model 9 (versions: Model 2.xcdatamodel, Model.xcdatamodel)") == true
        )
    }

    @Test func currentVersionMayBeTheOldestOrNamedWithSpaces() throws {
        let plus = try SharedFixtures.makeBundle(
            named: "SampleModel",
            versions: [
                "SampleModel": "alemar11__CoreDataPlus__SampleModel.xml",
                "SampleModel2": "alemar11__CoreDataPlus__SampleModel2.xml",
                "SampleModel3": "alemar11__CoreDataPlus__SampleModel3.xml",
            ],
            currentVersion: "alemar11__CoreDataPlus__SampleModel.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: plus.deletingLastPathComponent()) }
        let current = try ManagedObjectModel(contentsOf: plus)
        #expect(current.entities.count == 4 && current.versionIdentifiers == ["1"])
        #expect(
            try ManagedObjectModel(contentsOf: plus, version: "SampleModel3").entities.count == 5)
        let renamed = try ManagedObjectModel(contentsOf: plus, version: "SampleModel2")
        #expect(renamed[entityName: "LuxuryCar"]?.renamingIdentifier == "ExpensiveSportCar")

        let artsy = try SharedFixtures.makeBundle(
            named: "ArtsyPartner",
            versions: ["ArtsyFolio v2.7.0": "artsy__energy__ArtsyFolio_v2.7.0.xml"],
            currentVersion: "artsy__energy__ArtsyPartner.xccurrentversion.xml")
        defer { try? FileManager.default.removeItem(at: artsy.deletingLastPathComponent()) }
        let folio = try ManagedObjectModel(contentsOf: artsy)
        #expect(folio.entities.count == 21 && folio.versionIdentifiers == ["2.7.0"])
    }

    @Test func bundleWithoutCurrentVersionNeedsOneVersionOrAChoice() throws {
        let bundle = try SharedFixtures.makeBundle(
            named: "Pair",
            versions: ["A": "SyncDB__Sync__Model.xml", "B": "gonzalezreal__Groot__Model.xml"],
            currentVersion: nil)
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let error = ModelFixtures.error { _ = try ManagedObjectModel(contentsOf: bundle) }
        #expect(
            error?.message.contains(
                "has no .xccurrentversion to choose among versions (A.xcdatamodel, B.xcdatamodel)")
                == true)
        #expect(try ManagedObjectModel(contentsOf: bundle, version: "B").entities.count == 8)
    }

    @Test func swiftGenModelKeepsEveryFeature() throws {
        let model = try ManagedObjectModel(
            contentsOf: Self.fixture("SwiftGen__SwiftGen__Model_2.xml"))
        let main = try #require(model[entityName: "MainEntity"])
        #expect(main.managedObjectClassName == "CustomMainEntity")
        #expect(main.userInfo == ["key": "value"])
        #expect(
            main.attributesByName["int16"]?.type == .integer16
                && main.attributesByName["int16"]?.isOptional == false)
        #expect(main.attributesByName["decimal"]?.defaultValue == .decimal(0))
        #expect(main.attributesByName["transient"]?.isTransient == true)
        #expect(main.attributesByName["integerEnum"]?.userInfo["RawType"] == "IntegerEnum")
        let transformable = try #require(main.attributesByName["attributedString"])
        // A transformable with no transformer name uses the Codable default: no warning.
        #expect(
            transformable.type == .transformable
                && transformable.attributeValueClassName == "NSAttributedString")
        #expect(!model.loadWarnings.contains { $0.contains("attributedString") })
        #expect(main.relationshipsByName["oneToMany"]?.isOrdered == true)
        #expect(
            main.relationshipsByName["manyToMany"]?.inverseRelationship?.entity?.name
                == "SecondaryEntity")
        let fetched = try #require(main.fetchedPropertiesByName["fetchedProperty"])
        #expect(
            fetched.destinationEntityName == "NewEntity"
                && fetched.predicateFormat == "true == true")
        #expect(
            fetched.userInfo == ["key": "value"]
                && fetched.destinationEntity === model[entityName: "NewEntity"])
        let child = try #require(model[entityName: "ChildEntity"])
        #expect(
            child.superentity === main
                && child.fetchedPropertiesByName["fetchedProperty"] === fetched)
        #expect(child.attributesByName["derivedCount"]?.derivationExpression == "oneToMany.@count")
        #expect(
            child.attributesByName["canonicalOptionalString"]?.derivationExpression
                == "canonical:(optionalString)")
        let newEntity = try #require(model[entityName: "NewEntity"])
        #expect(newEntity.superentity?.isAbstract == true)
        #expect(newEntity.uniquenessConstraints == [["identifier"]])
        #expect(
            newEntity.indexes == [
                FetchIndexDescription(
                    name: "byIdentifierIndex", elements: [.init(property: "identifier")])
            ])
        #expect(model.configurations == ["Custom": ["NewEntity"]])
        #expect(
            model.fetchRequestTemplatesByName.count == 3,
            "the fourth <fetchRequest> belongs to the fetched property")
        let objects = try #require(model.fetchRequestTemplate(forName: "ObjectFetchRequest"))
        #expect(objects.entityName == "MainEntity" && objects.predicateFormat == "uuid == $UUID")
        #expect(objects.returnsDistinctResults && objects.includesSubentities)
        #expect(
            model.fetchRequestTemplate(forName: "DictionaryFetchRequest")?.resultType == .dictionary
        )
        #expect(
            model.fetchRequestTemplate(forName: "ObjectIDFetchRequest")?.resultType
                == .managedObjectID)
    }

    @Test func validationRulesAreRead() throws {
        let model = try ManagedObjectModel(
            contentsOf: Self.fixture("ChristianKienle__Core-Data-Editor__iOS_Example.xml"))
        let test = try #require(model[entityName: "ValidationTest"])
        let email = try #require(test.attributesByName["email"])
        #expect(
            email.pattern == #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"# && email.minLength == 3
                && email.maxLength == 1000)
        #expect(test.attributesByName["integer16Attribute"]?.minValue == .integer(10))
        #expect(test.attributesByName["decimalAttribute"]?.maxValue == .decimal(100))
        #expect(
            test.attributesByName["dateAttribute"]?.minValue
                == .date(Date(timeIntervalSinceReferenceDate: 407_847_600)))
        let counted = model.entities.flatMap(\.relationships).filter {
            $0.isToMany && ($0.minCount > 0 || $0.maxCount > 0)
        }
        #expect(!counted.isEmpty)
    }

    /// Xcode models carry no validation predicates of their own (their limits are
    /// `minValueString`, `maxValueString` and `regularExpressionString`, read above): no
    /// shared model has any.
    @Test func xcodeModelsCarryNoValidationPredicates() throws {
        for file in SharedFixtures.modelFiles() {
            let model = try ManagedObjectModel(
                contentsOf: SharedFixtures.xcdatamodels.appendingPathComponent(file))
            #expect(
                model.entities.flatMap(\.attributes).allSatisfy { $0.validationPredicates.isEmpty },
                "\(file)")
        }
    }

    /// Transformables keep their type and transformer: `NSSecureUnarchiveFromData` (Xcode's
    /// default) is the Codable default; `WLTTransformer`, registered by the app, is not here,
    /// so its attributes load with a warning naming it.
    @Test func transformablesKeepTheirTransformerNames() throws {
        let model = try ManagedObjectModel(
            contentsOf: Self.fixture("the-blue-alliance__the-blue-alliance-ios__TBA.xml"))
        let ranking = try #require(model[entityName: "EventRanking"])
        let record = try #require(ranking.attributesByName["recordRaw"])
        #expect(record.type == .transformable && record.valueTransformerName == "WLTTransformer")
        #expect(record.attributeValueClassName == "WLT")
        #expect(
            model.loadWarnings.contains {
                $0.contains("EventRanking.recordRaw") && $0.contains("'WLTTransformer'")
            })
        #expect(!model.loadWarnings.contains { $0.contains("playoffRaw") })
    }

    @Test func fetchIndexesAndConstraintsAreRead() throws {
        let model = try ManagedObjectModel(
            contentsOf: Self.fixture("LoopKit__LoopKit__Modelv4.xml"))
        #expect(model.entities.flatMap(\.indexes).count == 15)
        #expect(model.entities.flatMap(\.uniquenessConstraints).count == 6)
        let bookmarks = try ManagedObjectModel(
            contentsOf: Self.fixture("duckduckgo__BrowserServicesKit__BookmarksModel_6.xml"))
        #expect(
            bookmarks.entities.flatMap(\.properties).filter { $0.versionHashModifier != nil }.count
                == 3)
    }
}
