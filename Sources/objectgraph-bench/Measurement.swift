import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's clock and memory, read as the comparison's other peers read them (see
/// docs/performance.md).
enum Measurement {
    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds since `start` (a value of ``now()``).
    static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }

    /// Runs `body` and returns its result with the seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let result = try body()
        return (result, seconds(since: start))
    }

    /// Resets the resident-set high-water mark (VmHWM), Linux ≥ 4.0; `false` where unsupported.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            return false
        }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    /// The resident-set high-water mark since the last reset, in MB (one decimal).
    static func peakRSSMegabytes() -> Double {
        if let kb = statusKilobytes("VmHWM") { return megabytes(kb) }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return megabytes(Int(usage.ru_maxrss))
    }

    /// The current resident set, in MB (one decimal).
    static func rssMegabytes() -> Double { megabytes(statusKilobytes("VmRSS") ?? 0) }

    /// Syncs and drops the OS page cache (needs root): `"dropped"`, or `"warm"` when refused.
    static func dropOSCaches() -> String {
        sync()
        guard let handle = FileHandle(forWritingAtPath: "/proc/sys/vm/drop_caches") else {
            return "warm"
        }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("3".utf8)) } catch { return "warm" }
        return "dropped"
    }

    /// The total size of the files that exist among `paths`, in bytes.
    static func fileSize(_ paths: [String]) -> Int {
        paths.reduce(0) { total, path in
            let size =
                (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?
                .intValue
            return total + (size ?? 0)
        }
    }

    private static func megabytes(_ kb: Int) -> Double { (Double(kb) / 1024 * 10).rounded() / 10 }

    private static func statusKilobytes(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kb = Int(fields[1]) { return kb }
        }
        return nil
    }
}
