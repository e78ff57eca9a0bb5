import Foundation
import Synchronization

/// The explicit keys of property wrappers (`@Attribute("other")`, `@Relationship("other")`,
/// `@Transformable("other")`), interned: a wrapper keeps a 2-byte number, 0 for "the
/// property's name", instead of a `String?`.
///
/// A wrapper is a stored property of every object of its class, and the key is read only on
/// the first access of the property in its entity (or to name it in a message): a `String?`
/// cost 16 bytes a wrapper in every object (96 an object of six properties) and a release
/// each when the object was freed. A number is 2 bytes and needs no release.
///
/// `@Attribute()` stores 0 and looks nothing up. An explicit key is looked up each time a
/// wrapper is made (every object of its class), so that lookup takes no lock: a hash of the
/// key's UTF-8 bytes and a probe or two of a table read through an atomic pointer, whose
/// entries are written once, each published by a release store of its number (as
/// ``SlotCells``). Only a key seen for the first time takes `lock` and adds an entry.
enum ExplicitKeys {
    /// The most distinct explicit keys a process can have (the numbers are `UInt16`).
    static let capacity = Int(UInt16.max)

    /// The table readers probe: the address of a ``KeyCells`` (0 before the first key).
    /// Tables are never freed: a reader may still probe one that was replaced.
    private static let published = Atomic<UInt>(0)
    // Sendable: `current` and `retired` are guarded by `lock`.
    nonisolated(unsafe) private static var current: KeyCells?
    nonisolated(unsafe) private static var retired: [KeyCells] = []
    private static let lock = NSLock()

    /// The number of `key` (from 1), interning it the first time it is seen.
    ///
    /// - Precondition: fewer than ``capacity`` distinct explicit keys in the process.
    static func number(of key: String) -> UInt16 {
        let hash = hash(key)
        let table = published.load(ordering: .acquiring)
        if table != 0 {
            let found = Unmanaged<KeyCells>.fromOpaque(UnsafeRawPointer(bitPattern: table)!)
                ._withUnsafeGuaranteedRef { $0.find(key, hash) }
            if found != 0 { return found }
        }
        return intern(key, hash)
    }

    /// The key numbered `number`, or `nil` for 0 (the property's name).
    static func key(_ number: UInt16) -> String? {
        guard number != 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return current!.key(number)
    }

    /// The first sight of `key` in the process: adds its entry, or finds the one another
    /// thread added since the probe.
    private static func intern(_ key: String, _ hash: UInt64) -> UInt16 {
        lock.lock()
        defer { lock.unlock() }
        if let current {
            let found = current.find(key, hash)
            if found != 0 { return found }
        }
        let count = current?.count ?? 0
        precondition(
            count < capacity,
            "ObjectGraph: more than \(capacity) distinct explicit property keys in one process")
        guard let table = current, table.hasRoom else {
            let bigger = KeyCells(capacity: max(64, (current?.capacity ?? 0) * 2))
            if let current {
                current.forEachEntry { bigger.insert($0, $1) }
                retired.append(current)
            }
            let number = bigger.insert(key, hash)
            current = bigger
            published.store(
                UInt(bitPattern: Unmanaged.passUnretained(bigger).toOpaque()),
                ordering: .releasing)
            return number
        }
        return table.insert(key, hash)
    }

    /// FNV-1a of the key's UTF-8 bytes: a handful of instructions for a short key, where
    /// `Hasher` (SipHash) costs a few hundred.
    @inline(__always)
    static func hash(_ key: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}

/// An open-addressing table from explicit keys to their numbers, read without a lock while
/// one writer (holding ``ExplicitKeys``' lock) adds entries.
///
/// Key `n` is `keys[n - 1]`. The writer writes the key and the cell's hash, then the cell's
/// number with a release store; a reader loads the number with an acquire load and reads the
/// hash and the key only when it is set, so it sees them complete. A number of 0 marks an
/// empty cell (the end of a probe). The table is replaced by one twice as large before it is
/// half full; the keys keep their numbers.
final class KeyCells: @unchecked Sendable {
    // Sendable: cells are written once by one writer (under `ExplicitKeys`' lock) and
    // published by the release store of their number; readers read only published cells.
    let capacity: Int
    /// log2 of ``capacity`` (a power of two).
    private let capacityBits: Int
    private let keys: UnsafeMutablePointer<String>
    private let hashes: UnsafeMutablePointer<UInt64>
    private let numbers: UnsafeMutablePointer<Atomic<UInt32>>
    /// Keys written; read and written by the writer only.
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "a power of two")
        self.capacity = capacity
        self.capacityBits = capacity.trailingZeroBitCount
        keys = .allocate(capacity: capacity / 2)
        hashes = .allocate(capacity: capacity)
        hashes.initialize(repeating: 0, count: capacity)
        numbers = .allocate(capacity: capacity)
        for i in 0..<capacity { (numbers + i).initialize(to: Atomic(0)) }
    }

    deinit {
        keys.deinitialize(count: count)
        keys.deallocate()
        hashes.deallocate()
        numbers.deallocate()
    }

    /// Whether one more key keeps the table at most half full.
    var hasRoom: Bool { (count + 1) * 2 <= capacity }

    /// The cell a key of `hash` is looked for from: the top bits of the hash multiplied by
    /// 2^64 / φ (Fibonacci hashing), as many as the table's size takes. (The hash's own bits
    /// 17 and up, used before, change with a key's last byte only through a carry, so keys
    /// differing only there, as `field0` … `field9`, shared one or two cells and were found
    /// after probing 5–60 cells on average; the review of `mem`.)
    @inline(__always)
    func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - capacityBits))
    }

    /// The number of `key`, or 0.
    @inline(__always)
    func find(_ key: String, _ hash: UInt64) -> UInt16 {
        var i = home(hash)
        while true {
            let number = numbers[i].load(ordering: .acquiring)
            if number == 0 { return 0 }
            if hashes[i] == hash && keys[Int(number) - 1] == key { return UInt16(number) }
            i = (i + 1) & (capacity - 1)
        }
    }

    /// The key numbered `number`; call as the one writer (or under its lock).
    func key(_ number: UInt16) -> String { keys[Int(number) - 1] }

    /// Adds `key` (not in the table) as the next number and returns it; call as the one
    /// writer, with room left.
    @discardableResult
    func insert(_ key: String, _ hash: UInt64) -> UInt16 {
        var i = home(hash)
        while numbers[i].load(ordering: .relaxed) != 0 { i = (i + 1) & (capacity - 1) }
        (keys + count).initialize(to: key)
        count += 1
        hashes[i] = hash
        numbers[i].store(UInt32(count), ordering: .releasing)
        return UInt16(count)
    }

    /// Calls `body` with every key and its hash, in number order; call as the one writer.
    func forEachEntry(_ body: (String, UInt64) -> Void) {
        var hashOf = [UInt64](repeating: 0, count: count)
        for i in 0..<capacity {
            let number = Int(numbers[i].load(ordering: .relaxed))
            if number != 0 { hashOf[number - 1] = hashes[i] }
        }
        for n in 0..<count { body(keys[n], hashOf[n]) }
    }
}
