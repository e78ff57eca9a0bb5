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
}
