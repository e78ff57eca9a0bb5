import Foundation
import Testing

@testable import ObjectGraph

/// The streamed open's reader thread never outlives the read: the read joins it on every path,
/// and the join (`startJoinableThread`'s `pthread_join`) returns only once the thread's body
/// has returned. (Releasing what the body captured, which the other tests check, does not show
/// this: the body lets go of its captures before it returns, joined or not.)
extension StoreFileStreamTests {
    @Test(arguments: [false, true])
    func theReadJoinsItsReaderThreadBeforeItReturnsOrThrows(failing: Bool) throws {
        let file = try storeFile(compacted: false)
        let joins = JoinLog()
        try withStream(file, chunk: 512) { stream, fd, fs in
            stream.startThread = { body in
                // The real thread, its join recorded.
                guard let join = startJoinableThread(body) else { return nil }
                return {
                    join()
                    joins.joined()
                }
            }
            if failing {
                expectReadFailing(from: 4096, &stream, fd, fs)
            } else {
                let read = try stream.read(fd)
                #expect(read.bytes == file)
            }
            #expect(joins.count == 1, "joined once, before the read returned or threw")
        }
    }

    @Test func aJoinReturnsOnlyOnceTheThreadsBodyHasReturned() throws {
        // The body waits for the gate, which opens just before the join, then gives up the
        // processor a thousand times before it records its end: a join that did not wait (a
        // detached thread) would find the body not yet finished. A real join always passes.
        let gate = DispatchSemaphore(value: 0)
        let finished = JoinLog()
        let join = try #require(
            startJoinableThread {
                gate.wait()
                for _ in 0..<1000 { sched_yield() }
                finished.joined()
            })
        gate.signal()
        join()
        #expect(finished.count == 1, "the body had returned when the join returned")
    }
}

/// A count of events, read and written under a lock from any thread.
private final class JoinLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events = 0

    func joined() { lock.withLock { events += 1 } }

    var count: Int { lock.withLock { events } }
}
