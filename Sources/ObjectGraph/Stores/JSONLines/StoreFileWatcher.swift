import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Calls back when a store file may have changed: appended to, truncated, replaced by a
/// rename (compaction, repair) or removed, by this process or another.
///
/// With ``RemoteChangeDetection/automatic`` on Linux it asks the kernel (`inotify`) about the
/// file's directory, since compaction renames a new file over the old one, and wakes only for
/// events naming the file: nothing runs while the file is idle. Elsewhere, or when no inotify
/// instance or watch is left, or with ``RemoteChangeDetection/polling``, a timer compares the
/// path's device, inode and length with the last look. `onChange` runs on the watcher's serial
/// queue (`ObjectGraph.StoreFileWatcher`), once per burst of events; it must tolerate calls
/// for changes it already saw.
final class StoreFileWatcher: @unchecked Sendable {
    // Sendable: `source` and `stopped` are read and written only while holding `lock`;
    // `lastSeen` only on `queue`; the rest is immutable (`release` guards itself).
    private let lock = NSLock()
    private var source: (any DispatchSourceProtocol)?
    private var stopped = false
    private let queue = DispatchQueue(label: "ObjectGraph.StoreFileWatcher")
    private let onQueue = DispatchSpecificKey<Bool>()
    private let release = WatchRelease()
    private var lastSeen: FileStatus?
    private let onChange: @Sendable () -> Void
    /// Whether the kernel reports the changes (`inotify`) rather than a timer.
    let usesKernelEvents: Bool

    /// Starts watching `path` (a regular file, symbolic links resolved).
    ///
    /// - Parameters:
    ///   - fileSystem: How the timer looks at the path; a simulated file system is always polled.
    ///   - interval: The timer's period in seconds, when it polls (at least 1 ms).
    init(
        path: String, detection: RemoteChangeDetection, interval: TimeInterval,
        fileSystem: any StoreFileSystem, onChange: @escaping @Sendable () -> Void
    ) {
        self.onChange = onChange
        queue.setSpecific(key: onQueue, value: true)
        let kernel =
            detection == .automatic && fileSystem is PosixFileSystem
            ? Self.kernelSource(path: path, queue: queue, release: release, onChange: onChange)
            : nil
        usesKernelEvents = kernel != nil
        if let kernel {
            source = kernel
        } else {
            lastSeen = try? fileSystem.status(atPath: path)
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let period = max(interval, 0.001)
            timer.schedule(
                deadline: .now() + period, repeating: period, leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                let now = try? fileSystem.status(atPath: path)
                guard now != lastSeen else { return }
                lastSeen = now
                onChange()
            }
            timer.setCancelHandler { [release] in release.done() }
            source = timer
        }
        source?.resume()
    }

    deinit { stop() }

    /// Whether the watch has ended and released what it held (the inotify descriptor).
    var isReleased: Bool { release.isDone }

    /// Stops watching and releases the inotify descriptor; no `onChange` starts afterwards.
    /// Waits for the release unless called on the watcher's own queue. Idempotent.
    func stop() {
        lock.lock()
        let source = stopped ? nil : self.source
        stopped = true
        self.source = nil
        lock.unlock()
        guard let source else { return }
        source.cancel()
        if DispatchQueue.getSpecific(key: onQueue) != true {
            release.wait(seconds: 5)
        }
    }

    /// Runs `onChange` soon on the watcher's queue, as if the file had changed (unless
    /// stopped): for news that comes from elsewhere (another store of this process wrote).
    func poke() {
        lock.lock()
        let live = !stopped
        lock.unlock()
        guard live else { return }
        queue.async { [weak self] in
            guard let self, !isStopped else { return }
            onChange()
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// A read source on a new inotify descriptor watching `path`'s directory, or `nil` when
    /// the kernel offers none.
    private static func kernelSource(
        path: String, queue: DispatchQueue, release: WatchRelease,
        onChange: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            let directory = (path as NSString).deletingLastPathComponent
            let name = Array((path as NSString).lastPathComponent.utf8)
            let mask =
                UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)
                | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
                | UInt32(IN_ATTRIB)
            guard inotify_add_watch(fd, directory.isEmpty ? "." : directory, mask) >= 0 else {
                Glibc.close(fd)
                return nil
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler {
                if InotifyEvents.drain(fd, naming: name) { onChange() }
            }
            source.setCancelHandler {
                Glibc.close(fd)
                release.done()
            }
            return source
        #else
            return nil
        #endif
    }
}

/// The end of a watch: set once its source's cancel handler released what it held.
final class WatchRelease: @unchecked Sendable {
    // Sendable: `finished` is guarded by `condition`.
    private let condition = NSCondition()
    private var finished = false

    /// Whether the release happened.
    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Marks the release done and wakes the waiters.
    func done() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the release is done, at most `seconds`.
    func wait(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !finished, condition.wait(until: deadline) {}
    }
}

#if os(Linux)
    /// Reading an inotify descriptor's queued events.
    enum InotifyEvents {
        /// Reads every queued event; whether one names `name` (or events were lost, or the
        /// watched directory went away, which may hide one).
        static func drain(_ fd: Int32, naming name: [UInt8]) -> Bool {
            var matched = false
            let capacity = 16 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = read(fd, buffer, capacity)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return matched }
                var offset = 0
                // Each record: wd (Int32), mask, cookie, len (UInt32), then `len` name bytes
                // padded with NULs.
                while offset + 16 <= count {
                    let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = buffer.advanced(by: offset + 16).assumingMemoryBound(
                        to: UInt8.self)
                    let bytes = UnsafeBufferPointer(start: nameStart, count: length)
                    let eventName = bytes.prefix { $0 != 0 }
                    if mask & (UInt32(IN_Q_OVERFLOW) | UInt32(IN_IGNORED)) != 0
                        || eventName.elementsEqual(name)
                    {
                        matched = true
                    }
                    offset += 16 + length
                }
            }
        }
    }
#endif
