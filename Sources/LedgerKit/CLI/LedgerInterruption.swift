import Dispatch
import Foundation

/// How a command that runs until interrupted (`ledger watch`) hears of the interruption.
package enum LedgerInterruption {
    // Sendable: `sources` is read and written only while holding `lock`.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let lock = NSLock()

    /// Calls `stop` on SIGINT (Ctrl-C) or SIGTERM, on a global queue, instead of the
    /// default action (ending the process at once), so the command can close the ledger and
    /// exit 0.
    package static func signals(_ stop: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            sources.append(source)
        }
    }
}
