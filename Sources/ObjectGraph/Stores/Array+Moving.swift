import Foundation

extension Array {
    /// Reverses the elements in place through the array's buffer: each swap moves two
    /// elements (no copy, no retain), where `reverse()` checked the array's uniqueness at each
    /// swap (≈ 65 instructions a row of a replayed file).
    ///
    /// Used before taking the elements out one by one with `popLast()`, which moves each out
    /// of the array (reading an element copies it), in their original order.
    mutating func reverseThroughBuffer() {
        withUnsafeMutableBufferPointer { buffer in
            var (i, j) = (0, buffer.count - 1)
            while i < j {
                buffer.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
    }

    /// Moves every element of `other` onto the end of this array, in order, leaving `other`
    /// empty: `append(contentsOf:)` copies each element (a retain of its references, and a
    /// release of each when `other` goes), where this moves them.
    ///
    /// - Complexity: O(`other.count`); `other` is copied first if its buffer is shared.
    mutating func appendMoving(from other: inout [Element]) {
        reserveCapacity(count + other.count)
        other.reverseThroughBuffer()
        while let element = other.popLast() { append(element) }
    }
}
