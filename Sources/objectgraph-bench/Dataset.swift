import Foundation

/// The benchmark's dataset (see docs/performance.md), read once before anything is timed.
///
/// Line 1 is a header (`n`, `seed`, `categories`, `w3_expected`); each further line is one
/// expense (`id`, `title`, `amount`, `date` in Unix seconds, `note` or null, `category` 1…20).
struct Dataset {
    struct Row {
        let id: UUID
        let title: String
        let amount: Double
        let date: Date
        let note: String?
        /// 0-based index into ``Dataset/categories``.
        let category: Int
    }

    let categories: [String]
    let rows: [Row]
    /// The ids W3 must return, in order.
    let w3Expected: [UUID]

    /// The ids W5 deletes: rows at even 0-based positions.
    var idsToDelete: Set<UUID> {
        Set(rows.indices.lazy.filter { $0 % 2 == 0 }.map { rows[$0].id })
    }

    /// Reads the dataset file at `path`.
    ///
    /// - Throws: ``BenchError`` naming the file and line when it is missing or malformed.
    static func load(path: String) throws -> Dataset {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read dataset \(path)")
        }
        let decoder = JSONDecoder()
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        guard let first = lines.popFirst() else { throw BenchError("\(path): empty dataset") }
        let header: Header
        do { header = try decoder.decode(Header.self, from: Data(first)) } catch {
            throw BenchError("\(path):1: not a dataset header (\(error))")
        }
        guard header.categories.count > 0 else { throw BenchError("\(path):1: no categories") }
        var rows: [Row] = []
        rows.reserveCapacity(header.n)
        for (offset, line) in lines.enumerated() {
            let lineNumber = offset + 2
            let raw: RawRow
            do { raw = try decoder.decode(RawRow.self, from: Data(line)) } catch {
                throw BenchError("\(path):\(lineNumber): not a dataset row (\(error))")
            }
            guard let id = UUID(uuidString: raw.id) else {
                throw BenchError("\(path):\(lineNumber): id \(raw.id) is not a UUID")
            }
            guard (1...header.categories.count).contains(raw.category) else {
                throw BenchError(
                    "\(path):\(lineNumber): category \(raw.category) is not in 1…\(header.categories.count)"
                )
            }
            rows.append(
                Row(
                    id: id, title: raw.title, amount: raw.amount,
                    date: Date(timeIntervalSince1970: raw.date), note: raw.note,
                    category: raw.category - 1))
        }
        guard rows.count == header.n else {
            throw BenchError(
                "\(path): header says n = \(header.n) but the file has \(rows.count) rows")
        }
        let expected = try header.w3Expected.map { text in
            guard let id = UUID(uuidString: text) else {
                throw BenchError("\(path):1: w3_expected id \(text) is not a UUID")
            }
            return id
        }
        return Dataset(categories: header.categories, rows: rows, w3Expected: expected)
    }

    private struct Header: Decodable {
        let n: Int
        let categories: [String]
        let w3Expected: [String]

        enum CodingKeys: String, CodingKey {
            case n, categories
            case w3Expected = "w3_expected"
        }
    }

    private struct RawRow: Decodable {
        let id: String
        let title: String
        let amount: Double
        let date: Double
        let note: String?
        let category: Int
    }
}

/// A benchmark failure with a message for stderr.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
