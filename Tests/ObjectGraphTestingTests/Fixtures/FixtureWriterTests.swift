import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct FixtureWriterTests {
    @Test func writtenFixturesLoadBackToTheSameRows() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let original = try FixtureProvider(
            model: model, fixtureFiles: [ProjectFixtures.fixtureURL("expenses")])
        let written = try FixtureWriter().fixtureData(from: original.makeCoordinator())
        let reloaded = try FixtureProvider(model: model, fixtureData: written, file: "written.json")
        for entity in model.entities {
            #expect(original.snapshot.rows(of: entity) == reloaded.snapshot.rows(of: entity))
        }
        #expect(try FixtureWriter().fixtureData(from: reloaded.makeCoordinator()) == written)
    }

    @Test func theOutputIsCanonical() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let json = #"""
            {"Transaction": [{"id": "11111111-2222-4333-8444-555555555501", "amount": 2.50, "date": "2024-01-01T10:00:00.5+01:00",
                              "category": "c"}],
             "Category": [{"_ref": "c", "id": "6f1c2b9e-3d4a-4e5f-8a7b-1c2d3e4f5a60", "name": "Food"}]}
            """#
        let fixtures = try FixtureProvider(model: model, fixtureData: Data(json.utf8))
        let text = String(
            decoding: try FixtureWriter().fixtureData(from: fixtures.makeCoordinator()),
            as: UTF8.self)
        #expect(
            text == #"""
                {
                  "Category": [
                    {
                      "_ref": "Category-1",
                      "colorHex": "#FFFFFF",
                      "id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60",
                      "name": "Food"
                    }
                  ],
                  "Transaction": [
                    {
                      "_ref": "Transaction-1",
                      "amount": "2.5",
                      "category": "Category-1",
                      "date": "2024-01-01T09:00:00.5Z",
                      "id": "11111111-2222-4333-8444-555555555501",
                      "isCleared": false
                    }
                  ]
                }

                """#)
    }
}
