import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One element of a parsed XML document, with where its start tag begins.
struct XMLNode {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode] = []
    /// 1-based line and column of the element's `<`.
    var line: Int
    var column: Int

    /// How deeply elements may nest. An Xcode model nests five levels (`model`, `entity`,
    /// `attribute`, `userInfo`, `entry`); the limit keeps a hostile file from exhausting the
    /// stack (as the predicate parser's 100 and the JSON parser's 256 do).
    static let maximumDepth = 256

    /// Parses `data` into its root element with FoundationXML's `XMLParser`.
    ///
    /// - Throws: ``ObjectGraphError`` 134060 naming `file`, line, column and what was expected
    ///   for malformed XML, an empty document, or elements nested deeper than
    ///   ``maximumDepth``.
    static func parse(_ data: Data, file: String) throws -> XMLNode {
        let builder = XMLTreeBuilder(data: data)
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        if let failure = builder.failure {
            throw ModelError.xmlSyntax(
                file: file, line: failure.line, column: failure.column,
                expected: failure.expected
                    ?? XMLTreeBuilder.expectation(forLibXMLCode: failure.code))
        }
        if let error = parser.parserError as NSError? {
            throw ModelError.xmlSyntax(
                file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                expected: XMLTreeBuilder.expectation(forLibXMLCode: error.code))
        }
        guard let root = builder.root else {
            throw ModelError.xmlSyntax(
                file: file, line: 1, column: 1, expected: "an XML document with a root element")
        }
        return root
    }

    /// The children named `name`.
    func children(named name: String) -> [XMLNode] { children.filter { $0.name == name } }
}

/// Builds the element tree as `XMLParser` reports elements, and keeps the first error.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    struct Failure {
        var code: Int
        var line: Int
        var column: Int
        /// What was expected, when the builder (not libxml2) stopped the parse.
        var expected: String?
    }

    private(set) var root: XMLNode?
    private(set) var failure: Failure?
    private var stack: [XMLNode] = []
    private let lineStarts: [Int]
    private let bytes: [UInt8]
    /// The last tag start found (byte offset, its line index and character column), so the
    /// next element on the same line is found by walking on from there.
    private var cursor = (offset: 0, line: 0, column: 1)

    init(data: Data) {
        bytes = Array(data)
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(i + 1)
        }
        lineStarts = starts
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        let (line, column) = tagStart(line: parser.lineNumber, column: parser.columnNumber)
        guard stack.count < XMLNode.maximumDepth else {
            if failure == nil {
                failure = Failure(
                    code: 0, line: line, column: column,
                    expected: "elements nested at most \(XMLNode.maximumDepth) deep "
                        + "(an Xcode model nests 5); <\(elementName)> is nested deeper")
            }
            parser.abortParsing()
            return
        }
        stack.append(
            XMLNode(name: elementName, attributes: attributeDict, line: line, column: column))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil {
            failure = Failure(
                code: (parseError as NSError).code, line: max(parser.lineNumber, 1),
                column: max(parser.columnNumber, 1))
        }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        self.parser(parser, parseErrorOccurred: validationError)
    }

    /// Where the start tag reported at (`line`, `column`) begins: the last `<` before it
    /// (`<` cannot occur inside a well-formed tag). libxml2 counts columns in characters, so
    /// the reported column is walked to a byte offset; both walks continue from the previous
    /// element's position on the same line, which keeps a very long line linear.
    private func tagStart(line: Int, column: Int) -> (Int, Int) {
        guard !bytes.isEmpty, line >= 1, line <= lineStarts.count else {
            return (max(line, 1), max(column, 1))
        }
        let lineIndex = line - 1
        let lineEnd = lineIndex + 1 < lineStarts.count ? lineStarts[lineIndex + 1] : bytes.count
        // Walk to the reported position, in characters.
        var offset = lineStarts[lineIndex]
        var at = 1
        if cursor.line == lineIndex && cursor.column <= column && cursor.offset >= offset {
            (offset, at) = (cursor.offset, cursor.column)
        }
        while at < column && offset < lineEnd {
            offset += 1
            while offset < lineEnd && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            at += 1
        }
        offset = min(offset, bytes.count - 1)
        // Back to the `<`, counting the characters stepped over.
        var tag = offset
        while tag > lineStarts[lineIndex] && bytes[tag] != UInt8(ascii: "<") {
            tag -= 1
            if bytes[tag] & 0xC0 != 0x80 { at -= 1 }
        }
        if bytes[tag] == UInt8(ascii: "<") {
            cursor = (tag, lineIndex, at)
            return (line, at)
        }
        // The tag began on an earlier line (attributes spread over lines): count from scratch.
        while tag > 0 && bytes[tag] != UInt8(ascii: "<") { tag -= 1 }
        var startLine = lineIndex
        while startLine > 0 && lineStarts[startLine] > tag { startLine -= 1 }
        let startColumn = 1 + bytes[lineStarts[startLine]..<tag].filter { $0 & 0xC0 != 0x80 }.count
        return (startLine + 1, startColumn)
    }

    /// What libxml2 (under `XMLParser`) expected when it stopped with error `code`.
    static func expectation(forLibXMLCode code: Int) -> String {
        switch code {
        case 4: "an XML document with a root element (the file is empty or not XML)"
        case 5:
            "every element closed before the end of the file, and nothing after the root element"
        case 9: "only characters XML allows"
        case 26, 27:
            "only the entities &amp; &lt; &gt; &quot; &apos; (an undeclared entity was used)"
        case 38: "an attribute value without '<' (write &lt;)"
        case 39, 40, 41, 43, 44: "an attribute value in quotes"
        case 42: "each attribute at most once in an element"
        case 45: "a comment closed with '-->'"
        case 68: "an element or attribute name"
        case 73: "'>' or '/>' to end the tag"
        case 74: "'</' to close the element"
        case 75: "'=' after an attribute name"
        case 76: "a closing tag matching the element that is open"
        case 77: "the tag to be finished"
        default: "well-formed XML (XML parser error \(code))"
        }
    }
}
