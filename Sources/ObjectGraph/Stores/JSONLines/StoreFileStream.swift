import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a store file in chunks on a thread of its own while the calling thread reads ahead
/// the rows of a large transaction line as its bytes arrive, so that an open with a cold page
/// cache parses during the read rather than after it.
///
/// The result is the file's bytes, exactly as ``StoreFileSystem/readToEnd(_:from:)`` gives
/// them (the same reads' errors, a file shorter than its status said, one that grew), and the
/// rows read ahead (``PrefetchedRows``), which ``StoreFileLoader`` hands to the line parser:
/// they change nothing the load gives (the line is still framed, checksummed, read and applied
/// as before), only how much of its `ins` array is left to read after the file has arrived.
///
/// Only a transaction line that is still arriving when ``largeLine`` of its bytes are in is
/// read ahead, and only its `ins` array, from its first row on, in parts cut at `],["`
/// sequences; the read ahead stops at the first part that does not end where the next
/// begins (a `],["` inside a string, damage, the array's end) and whatever it has not read
/// is read by the load as before. Nothing is applied from what is read ahead: it is parsed
/// only, and the line's checksum is compared before its rows are used.
struct StoreFileStream {
    /// The file system the file is read through.
    let fileSystem: any StoreFileSystem
    /// The file's path (for the codec's messages; read-ahead errors are never reported).
    let path: String
    /// The application's model (as ``StoreFileLoader`` takes it).
    let model: ManagedObjectModel?
    /// How many bytes each read asks for.
    var chunkSize = 1 << 20
    /// Files shorter than this are read whole, in one call, as before.
    var streamAbove = LineParser.parallelBytes
    /// From how many bytes on a line that is still arriving is read ahead
    /// (``LineParser/parallelAbove``, the load's threshold for a large line).
    var largeLine = LineParser.parallelBytes
    /// How many bytes of a line not read ahead yet are awaited before a round of reading ahead.
    var round = 1 << 18
    /// At most how many bytes a round reads (so that once the file is in, what is left is
    /// read by the load's split read, in parts balanced across the cores).
    var roundLimit = 1 << 20
    /// Called on the calling thread after each time it has looked at what arrived, with how
    /// many bytes had arrived and how many rows were read ahead (tests: the order of reads
    /// and parses).
    var observe: ((_ published: Int, _ rows: Int) -> Void)?
    /// Reads bytes of the open file at an offset, on the reader thread:
    /// ``StoreFileSystem/read(_:into:at:)`` unless a test injects a reader (one that hands out
    /// chunks on demand).
    var readChunk: (@Sendable (Int32, UnsafeMutableRawBufferPointer, Int) throws -> Int)?
    /// Starts the reader: runs its body on a thread of its own and returns what joins that
    /// thread, or `nil` when no thread could be started (the body then never runs, and the
    /// file is read whole on the calling thread). ``startJoinableThread(_:)`` unless a test
    /// injects a starter.
    var startThread: (@escaping @Sendable () -> Void) -> (() -> Void)? = startJoinableThread

    /// The whole file from offset 0, and the rows read ahead while it arrived.
    func read(_ fd: Int32) throws -> (bytes: [UInt8], prefetched: [PrefetchedRows<StoreRow>]) {
        let fs = fileSystem
        let expected = max(0, try fs.status(fd).size)
        guard expected >= max(streamAbove, 1) else { return (try fs.readToEnd(fd), []) }
        let progress = ReadProgress()
        var ahead = ReadAhead(
            path: path, model: model, largeLine: largeLine, round: max(1, round),
            roundLimit: max(1, roundLimit))
        var started = true
        let bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            let target = SharedTarget(buffer: UnsafeMutableRawBufferPointer(buffer))
            let chunk = max(1, chunkSize)
            let reading =
                readChunk ?? { fd, buffer, offset in try fs.read(fd, into: buffer, at: offset) }
            guard
                let join = startThread({
                    progress.read(fd, into: target.buffer, chunk: chunk, reading: reading)
                })
            else {
                // No thread: the file is read whole below, as before.
                started = false
                initialized = 0
                return
            }
            // The loop returns only once the reader has finished (it throws nothing); the
            // join then waits for the thread's end, its captures released.
            defer { join() }
            let source = UnsafeRawBufferPointer(buffer)
            var seen = 0
            var more = false
            while true {
                // Without waiting while what has arrived holds more to read ahead.
                let (published, finished) = more ? progress.now() : progress.wait(beyond: seen)
                if finished {
                    observe?(published, ahead.rowCount)
                    initialized = published
                    break
                }
                more = ahead.advance(UnsafeRawBufferPointer(rebasing: source[..<published]))
                seen = published
                observe?(published, ahead.rowCount)
            }
        }
        guard started else { return (try fs.readToEnd(fd), []) }
        if let failure = progress.failure { throw failure }
        // As `readToEnd`: the file may have grown since `status`; read on to its end.
        let rest = try fs.readToEnd(fd, from: bytes.count)
        return (rest.isEmpty ? bytes : bytes + rest, ahead.finished())
    }
}

/// Runs `body` on a new thread (`pthread_create`) and returns what joins it (`pthread_join`):
/// once that returns, `body` has returned and everything it captured is released; `nil`, and
/// `body` never runs, when the thread could not be created.
func startJoinableThread(_ body: @escaping @Sendable () -> Void) -> (() -> Void)? {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
        &thread, nil,
        { context in
            // Released (with the body's captures) before the thread ends.
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
    guard created == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return nil
    }
    let started = thread
    return { _ = pthread_join(started, nil) }
}

/// A thread's body, handed to `pthread_create` as its argument.
private final class ThreadBody {
    /// What the thread runs.
    let run: @Sendable () -> Void

    /// A body running `run`.
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// The first rows of a large transaction line's `ins` array, read while the rest of the file
/// was still arriving (``StoreFileStream``), for the split read of that array
/// (`RowCodec.readAcrossCores`) to use instead of reading them again.
///
/// The rows run from the array's first row (``first``) to just before ``resume``, the first
/// byte of the next row, which follows a comma: every part read ahead ended exactly at the
/// comma before the next part's first row, which (as in a split read) proves that the parts
/// are the array's rows, in order, read as one thread reads them.
final class PrefetchedRows<Element>: @unchecked Sendable {
    // Sendable: filled by the thread reading ahead, then handed over with the file's bytes to
    // the load, whose one split read of the array alone empties it.
    /// The identity of the codec that read the rows (its model instance, store identifier
    /// and format version): a split read uses them only when it is its own.
    let codec: RowCodec.Identity
    /// The line's first byte, as a file offset.
    let lineStart: Int
    /// The array's first row, as an offset in the line (just after its `[`).
    let first: Int
    /// The first row not read ahead, as an offset in the line (just after a comma).
    var resume: Int
    /// The CRC-32C of the line's bytes before ``resume``.
    var checksum: UInt32
    /// The rows, in order.
    let rows = PartRows<Element>()

    /// No rows yet, to be read with a codec of identity `codec`: the array's first row is at
    /// `first` in the line starting at `lineStart`, whose bytes before it have the checksum
    /// `checksum`.
    init(codec: RowCodec.Identity, lineStart: Int, first: Int, checksum: UInt32) {
        self.codec = codec
        self.lineStart = lineStart
        self.first = first
        self.resume = first
        self.checksum = checksum
    }
}

/// The buffer the reader thread fills: bytes below what it has published are only read, the
/// bytes above only written, by it.
private struct SharedTarget: @unchecked Sendable {
    // Sendable: see `ReadProgress`, which publishes how far the buffer is filled.
    let buffer: UnsafeMutableRawBufferPointer
}

/// How far the reader thread has read, shared with the calling thread under a condition.
private final class ReadProgress: @unchecked Sendable {
    // Sendable: `published`, `finished` and `failure` are read and written only while holding
    // `condition`; the reader writes the buffer's bytes before publishing them and never after.
    /// Guards the state below; signalled whenever it changes.
    private let condition = NSCondition()
    /// How many bytes from the start have been read.
    private var published = 0
    /// Whether the reader has stopped (at the end, at a short file, or at an error).
    private var done = false
    /// The error a read threw, if one did.
    private var error: (any Error)?

    /// The error a read threw (once the reader has finished).
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return error
    }

    /// The reader thread: reads `buffer.count` bytes in reads of `chunk` bytes, publishing each,
    /// until they are all in, a read gives none (a file shorter than its status said), or one
    /// throws.
    func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, chunk: Int,
        reading: (Int32, UnsafeMutableRawBufferPointer, Int) throws -> Int
    ) {
        var count = 0
        var failure: (any Error)?
        while count < buffer.count {
            do {
                let end = min(buffer.count, count + chunk)
                let n = try reading(
                    fd, UnsafeMutableRawBufferPointer(rebasing: buffer[count..<end]), count)
                if n == 0 { break }
                count += n
            } catch {
                failure = error
                break
            }
            condition.lock()
            published = count
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        published = count
        error = failure
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// How many bytes are published now, and whether the reader has finished.
    func now() -> (published: Int, finished: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (published, done)
    }

    /// Waits until more than `count` bytes are published or the reader has finished; returns
    /// how many are and whether it has.
    func wait(beyond count: Int) -> (published: Int, finished: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while published <= count && !done { condition.wait() }
        return (published, done)
    }
}
