import Foundation

/// Cell text helpers: trimming and whitespace normalization on UTF-8 bytes.
enum Text {
    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// Whether the cell holds only spaces, tabs and line breaks.
    static func isBlank(_ p: UnsafeBufferPointer<UInt8>) -> Bool { p.allSatisfy(isSpace) }

    /// The cell without surrounding spaces, tabs and line breaks.
    static func trimmed(_ p: UnsafeBufferPointer<UInt8>) -> String {
        var start = 0
        var end = p.count
        while start < end, isSpace(p[start]) { start += 1 }
        while end > start, isSpace(p[end - 1]) { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    }

    /// Appends the cell trimmed, with every run of spaces, tabs and line breaks made one
    /// space, to `out`.
    static func appendNormalized(_ p: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let start = out.count
        var pendingSpace = false
        for b in p {
            if isSpace(b) {
                pendingSpace = out.count > start
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(b)
        }
    }
}
