import Foundation

/// One element of an Xcode model being read: typed access to its XML attributes, errors and
/// warnings that name the file, line and column, and a record of attributes never read.
struct XcodeElement {
    let node: XMLNode
    let file: String
    let entity: String?
    let property: String?
    private var used: Set<String> = []

    init(_ node: XMLNode, file: String, entity: String? = nil, property: String? = nil) {
        self.node = node
        self.file = file
        self.entity = entity
        self.property = property
    }

    /// `file:line:column` of the element.
    var location: String { "\(file):\(node.line):\(node.column)" }

    /// An error at this element.
    func error(_ problem: String) -> ObjectGraphError {
        ModelError.xcodeModel(
            file: file, line: node.line, column: node.column, entity: entity, property: property,
            problem: problem)
    }

    /// A warning at this element, naming entity and property.
    func warning(_ problem: String) -> String {
        let subject = entity.map { e in property.map { "\(e).\($0): " } ?? "\(e): " } ?? ""
        return "\(location): \(subject)\(problem)"
    }

    /// The attribute's value, or `nil` when absent.
    mutating func string(_ name: String) -> String? {
        used.insert(name)
        return node.attributes[name]
    }

    mutating func requiredString(_ name: String) throws -> String {
        guard let value = string(name), !value.isEmpty else {
            throw error("<\(node.name)> needs a \(name) attribute")
        }
        return value
    }

    /// `YES`/`NO` (Xcode's spelling); absent gives `fallback`.
    mutating func bool(_ name: String, default fallback: Bool) throws -> Bool {
        guard let value = string(name) else { return fallback }
        switch value {
        case "YES": return true
        case "NO": return false
        default: throw error("\(name)=\"\(EchoedText.capped(value))\" should be YES or NO")
        }
    }

    mutating func int(_ name: String) throws -> Int? {
        guard let value = string(name) else { return nil }
        guard let int = Int(value) else {
            throw error("\(name)=\"\(EchoedText.capped(value))\" should be an integer")
        }
        return int
    }

    mutating func double(_ name: String) throws -> Double? {
        guard let value = string(name) else { return nil }
        guard let double = Double(value), double.isFinite else {
            throw error("\(name)=\"\(EchoedText.capped(value))\" should be a number")
        }
        return double
    }

    /// Marks attributes that are understood but have no meaning for the engine.
    mutating func ignore(_ names: String...) {
        used.formUnion(names)
    }

    /// One warning per attribute never read, in name order.
    func unreadAttributeWarnings() -> [String] {
        node.attributes.keys.filter { !used.contains($0) }.sorted().map { name in
            warning(
                "unknown XML attribute \(name)=\"\(EchoedText.capped(node.attributes[name] ?? ""))\" on <\(node.name)> ignored"
            )
        }
    }

    /// A warning for a child element the reader does not know.
    func unknownChildWarning(_ child: XMLNode) -> String {
        let subject = entity.map { e in property.map { "\(e).\($0): " } ?? "\(e): " } ?? ""
        return
            "\(file):\(child.line):\(child.column): \(subject)unknown element <\(child.name)> in <\(node.name)> ignored"
    }
}
