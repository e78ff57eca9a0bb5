import CLISupport
import Foundation
import ObjectGraph

/// Prints one JSON object per workload, in the peers' shape:
/// `peer, mode, workload, n, seconds, peak_rss_mb, rss_mb`, then the workload's own keys.
final class Reporter {
    let peer: String
    let mode: String
    let n: Int
    let output: CLIOutput
    /// The largest per-workload peak so far: the process peak W7 reports (clearing VmHWM
    /// also clears `ru_maxrss` on Linux).
    private(set) var maxPeakMegabytes = 0.0
    private let heap = Heap()

    init(peer: String, mode: String, n: Int, output: CLIOutput) {
        self.peer = peer
        self.mode = mode
        self.n = n
        self.output = output
    }

    /// Prints a workload's line; `seconds` is rounded to microseconds as the peers do.
    func emit(_ workload: String, seconds: Double?, _ extra: [(String, JSONValue)] = []) {
        let peak = Measurement.peakRSSMegabytes()
        maxPeakMegabytes = max(maxPeakMegabytes, peak)
        var fields: [(String, JSONValue)] = [
            ("peer", .string(peer)), ("mode", .string(mode)), ("workload", .string(workload)),
            ("n", .integer(n)),
            ("seconds", seconds.map { .double(($0 * 1e6).rounded() / 1e6) } ?? .null),
            ("peak_rss_mb", .double(peak)), ("rss_mb", .double(Measurement.rssMegabytes())),
        ]
        // Where the resident bytes are after the workload (glibc's heap, one snapshot): in
        // use, kept free (reused by later allocations), and mapped on their own.
        if let figures = heap?.figures() {
            fields += [
                ("heap_in_use_mb", .double(Self.megabytes(figures.inUse))),
                ("heap_free_mb", .double(Self.megabytes(figures.keptFree))),
                ("heap_mapped_mb", .double(Self.megabytes(figures.mapped))),
            ]
        }
        fields += extra
        output.jsonLine(.object(fields))
    }

    private static func megabytes(_ bytes: Int) -> Double {
        (Double(bytes) / 1_048_576 * 10).rounded() / 10
    }
}
