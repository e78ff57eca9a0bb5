import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// A row's attribute values are written by the codec exactly as `writeCanonicalJSON(as:to:)`
/// writes them, and refused where it refuses them (issue 25, twenty-second session: the
/// common payloads are matched together with the slot's type, in place).
///
/// The expected bytes come from `canonicalJSON(as:)`, which shares the number, UUID and
/// string writers: these tests check the dispatch and the values read back; the numbers'
/// text is checked against `description` and `String` in `DoubleSpellingTests` and
/// `ByteWriterIntegerTests`.
@Suite struct RowValueWritingTests {
    private static let types: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
        .binaryData, .uuid, .uri, .transformable,
    ]

    /// One value of every case, with the edges of the ones the codec matches itself.
    private static let values: [AttributeValue] = [
        .null, .integer(0), .integer(.max), .integer(.min), .integer(40_000),
        .decimal(Decimal(string: "12.50")!), .double(0), .double(-0.0), .double(223.21),
        .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude), .double(.nan),
        .double(-.infinity), .double(Double(bitPattern: 0x7FF8_0000_0000_0001)),
        .double(675_242_087.580_247_4), .double(1_125_899_906_842_624.75), .float(1.5), .string(""),
        .string("plain"),
        .string("quote \" backslash \\ tab \t newline \n nul \u{0} \u{2028} \u{2029} é 日本 🎉"),
        .boolean(true), .date(Date(timeIntervalSinceReferenceDate: -978_307_200.25)),
        .date(Date(timeIntervalSinceReferenceDate: 675_242_087.580_247_4)),
        .date(Date(timeIntervalSinceReferenceDate: 1e15 + 0.5)), .data(Data([0, 1, 255])),
        .uuid(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255))),
        .uri(URL(string: "https://example.com/a?b=c")!), .transformable(Data([7])),
    ]

    private func codec(for type: AttributeType) throws -> (RowCodec, EntityDescription) {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", properties: [AttributeDescription(name: "value", type: type)])
        ])
        let entity = model.entitiesByName["Item"]!
        return (RowCodec(model: model, storeIdentifier: "S", path: "test"), entity)
    }

    private func row(_ value: AttributeValue, _ entity: EntityDescription) -> StoreRow {
        StoreRow(
            objectID: ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 1),
            version: 1, values: [.attribute(value)])
    }

    @Test func everyValueOfEveryTypeIsWrittenOrRefusedAsItsCanonicalJSON() throws {
        for type in Self.types {
            let (codec, entity) = try codec(for: type)
            for value in Self.values {
                let expected = try? value.canonicalJSON(as: type)
                let w = JSONByteWriter(capacity: 64)
                do {
                    try codec.write(row(value, entity), to: w)
                    #expect(
                        w.string == "[\"Item\",1,1,\(expected ?? "refused")]", "\(value) \(type)")
                } catch {
                    #expect(expected == nil, "\(value) as \(type) refused")
                    #expect(w.count == 0)
                }
            }
        }
    }

    @Test func seededDoublesDatesAndStringsInRowsReadBackBitForBit() throws {
        var random = SeededRandomNumberGenerator(seed: 2205)
        for type: AttributeType in [.double, .date, .string] {
            let (codec, entity) = try codec(for: type)
            for _ in 0..<20_000 {
                let bits = random.next()
                let value: AttributeValue
                switch type {
                case .double: value = .double(Double(bitPattern: bits))
                case .date:
                    value = .date(
                        Date(
                            timeIntervalSinceReferenceDate: Double(Int64(bits % 20_000_000_000))
                                - 1e10 + Double(random.next() % 10_000_000) / 1e7))
                default:
                    let scalars = (0..<Int(bits % 24)).map { _ in
                        Character(
                            Unicode.Scalar(UInt32(random.next() % 0xD7FF)) ?? " ")
                    }
                    value = .string(String(scalars))
                }
                guard case .double(let d) = value, d.isNaN else {
                    let w = JSONByteWriter(capacity: 64)
                    try codec.write(row(value, entity), to: w)
                    #expect(w.string == "[\"Item\",1,1,\(try value.canonicalJSON(as: type))]")
                    var text = w.string
                    let back = try text.withUTF8 { utf8 in
                        var s = JSONScanner(UnsafeRawBufferPointer(utf8))
                        return try codec.read(&s)
                    }
                    switch (back.values[0], value) {
                    case (.attribute(.double(let a)), .double(let b)):
                        #expect(a.bitPattern == b.bitPattern)
                    case (.attribute(.date(let a)), .date(let b)):
                        #expect(
                            a.timeIntervalSinceReferenceDate.bitPattern
                                == b.timeIntervalSinceReferenceDate.bitPattern)
                    default: #expect(back.values[0] == .attribute(value))
                    }
                    continue
                }
            }
        }
    }
}
