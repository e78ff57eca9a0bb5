import Foundation
import ObjectGraph
import Testing

/// A root save moves its inserted objects from their temporary IDs to permanent ones in the
/// registry: one by one for a few, by rebuilding the table for many. Either way each object
/// is found under its new ID alone and the objects already registered stay.
@Suite struct SaveRekeyingTests {
    @Test(arguments: [3, 300])
    func insertedObjectsAreRegisteredUnderTheirPermanentIDsAlone(_ count: Int) throws {
        let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
        let context = stack.context()
        try context.performAndWait {
            let holders = (0..<10).map { i in
                let holder = IntegrityModels.Holder(context: context)
                holder.name = "h\(i)"
                return holder
            }
            try context.save()
            let tickets = (0..<count).map { i in
                let ticket = IntegrityModels.Ticket(context: context)
                ticket.code = "AB\(i % 10)"
                ticket.holder = i % 7 == 0 && i < 20 ? holders[i % 10] : nil
                return ticket
            }
            let temporary = tickets.map(\.objectID)
            #expect(temporary.allSatisfy { $0.isTemporaryID })
            try context.save()
            for (ticket, old) in zip(tickets, temporary) {
                #expect(!ticket.objectID.isTemporaryID)
                #expect(context.registeredObject(for: ticket.objectID) === ticket)
                #expect(context.registeredObject(for: old) == nil)
            }
            for holder in holders {
                #expect(context.registeredObject(for: holder.objectID) === holder)
            }
            #expect(context.registeredObjects.count == count + holders.count)
            #expect(Set(tickets.map(\.objectID)).count == count)
            // The rows are under the same IDs.
            #expect(Set(try stack.rows("Ticket").map(\.objectID)) == Set(tickets.map(\.objectID)))
        }
    }
}
