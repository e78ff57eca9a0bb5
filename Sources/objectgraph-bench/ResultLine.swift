import CLISupport
import Foundation

/// A JSON value in a result line; keys keep the order they were added in.
enum JSONValue {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])

    /// The value's JSON text.
    var text: String {
        switch self {
        case .string(let s): return Self.quoted(s)
        case .number(let d): return d.isFinite ? "\(d)" : "null"
        case .integer(let i): return "\(i)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Prints one JSON object per workload, in the peers' shape:
/// `peer, mode, workload, n, seconds, peak_rss_mb, rss_mb`, then the workload's own keys.
final class Reporter {
    let peer: String
    let mode: String
    let n: Int
    let output: CLIOutput
    /// The largest per-workload peak so far: the process peak W7 reports (clearing VmHWM
    /// also clears `ru_maxrss` on Linux, as `common.py` notes).
    private(set) var maxPeakMegabytes = 0.0

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
            ("seconds", seconds.map { .number(($0 * 1e6).rounded() / 1e6) } ?? .null),
            ("peak_rss_mb", .number(peak)), ("rss_mb", .number(Measurement.rssMegabytes())),
        ]
        fields += extra
        output.out(
            "{" + fields.map { "\(JSONValue.quoted($0.0)): \($0.1.text)" }.joined(separator: ", ")
                + "}")
    }
}
