import Foundation

extension JSONLinesStore: WriteReportingStore {
    /// Whether the store was opened to report its writes
    /// (``StoreOptions/postsRemoteChangeNotifications``).
    var postsRemoteChangeNotifications: Bool { options.postsRemoteChangeNotifications }

    /// Reports this store's commits at once, and watches the file for transactions that
    /// another process (a writer beside this reader) or another store of this process sharing
    /// the writer lock appends, and for compactions and repairs that replace the file: each is
    /// brought in (so fetches see it) and then reported. See <doc:RemoteChange>.
    func startReportingWrites(to report: @escaping @Sendable (StoreWrite) -> Void) {
        stopReportingWrites()
        locked {
            guard let file else { return }
            reporting = WriteReporting(report: report, reported: file.lastTransaction)
            let watcher = StoreFileWatcher(
                path: path, detection: options.remoteChangeDetection,
                interval: options.remoteChangePollingInterval, fileSystem: fileSystem
            ) { [weak self] in self?.checkForWrites() }
            self.watcher = watcher
            // The file's events may come before a sharer counts its write: it says when.
            writeObservation = writerLock?.observeWrites { [weak watcher] in watcher?.poke() }
        }
    }

    /// Stops reporting and watching; waits until the watch has ended (its inotify descriptor
    /// closed). Must not be called while holding `lock`.
    func stopReportingWrites() {
        let watcher: StoreFileWatcher? = locked {
            reporting = nil
            if let writeObservation { writerLock?.stopObservingWrites(writeObservation) }
            writeObservation = nil
            defer { self.watcher = nil }
            return self.watcher
        }
        watcher?.stop()
    }

    /// Whether the file is watched by the kernel (`inotify`) rather than polled; `nil` while
    /// not watched.
    var watchesWithKernelEvents: Bool? { locked { watcher?.usesKernelEvents } }

    /// Brings in what changed in the file and reports it; called by the watcher. A failure
    /// (a damaged new line, a file replaced by another store's) reports nothing: the next
    /// fetch throws it.
    func checkForWrites() {
        locked {
            guard reporting != nil, file != nil else { return }
            try? refreshIfNeeded()
        }
    }

    /// Reports the transactions the store holds beyond the last one reported. The caller holds
    /// `lock`.
    func reportWrites() {
        guard let last = file?.lastTransaction else { return }
        reporting?.advance(to: last, store: identifier, url: url)
    }
}
