import Foundation
import ObjectGraph

// Application code in the shape Core Data apps write it, ported with the documented renames
// only (NSManagedObject → ManagedObject, @NSManaged → @Attribute/@Relationship, …); see
// <doc:PortingFromCoreData>. The model is `Fixtures/PortedExpenses.xcdatamodeld`, loaded by
// name with no class resolver.

public final class PortedCategory: ManagedObject {
    @Attribute public var name: String?
    @Relationship public var expenses: Set<PortedExpense>
}

extension PortedCategory {
    @nonobjc public class func fetchRequest() -> FetchRequest<PortedCategory> {
        FetchRequest<PortedCategory>(entityName: "PortedCategory")
    }
}

public final class PortedExpense: ManagedObject {
    @Attribute public var title: String?
    @Attribute public var amount: Double
    @Attribute public var timestamp: Date?
    @Attribute public var receiptFilePath: String?
    @Relationship public var category: PortedCategory?

    public override func prepareForDeletion() {
        super.prepareForDeletion()
        // Clean up the receipt stored beside the database.
        if let receiptFilePath {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: receiptFilePath))
        }
    }
}
