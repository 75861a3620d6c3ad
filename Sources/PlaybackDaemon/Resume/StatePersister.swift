import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Saves the resume state off the control loop: `save` hands the latest state to a worker
/// thread, which writes it atomically; saves requested while one is written collapse into one.
/// `saveNow` (at shutdown) waits for the worker and writes on the calling thread.
final class StatePersister {
    /// Longest the saved position lags behind while playing (the periodic save).
    static let playingInterval = 5.0

    let file: StateFile
    private let worker: BackgroundWorker
    private let latest = Mutex<ResumeState?>(nil)
    private var isScheduled = false
    private var lastFailure: String?
    private let log: DaemonLog
    /// The last items serialized, by revision. Touched only by the job running on the worker
    /// (and by `saveNow` after the worker is drained).
    private var cachedItems: (version: ItemsVersion, bytes: [UInt8])?

    init(file: StateFile, loop: ControlLoop, log: DaemonLog) {
        self.file = file
        self.log = log
        worker = BackgroundWorker(name: "pbd-state", loop: loop)
    }

    /// Writes `state` soon, on the worker thread.
    func save(_ state: ResumeState) {
        let boxed = UncheckedSendable(state)
        latest.withLock { $0 = boxed.value }
        guard !isScheduled else { return }
        isScheduled = true
        let file = self.file
        worker.submit { [unowned self] in
            let state = latest.withLock { pending in
                defer { pending = nil }
                return pending
            }
            guard let state else { return { [unowned self] in isScheduled = false } }
            let started = Self.monotonicMilliseconds()
            let bytes = serialize(state)
            let failure = file.save(bytes)
            let milliseconds = Self.monotonicMilliseconds() - started
            return { [unowned self] in
                isScheduled = false
                report(failure, items: state.items.count, bytes: bytes.count, milliseconds: milliseconds)
            }
        }
    }

    /// Waits for a pending write, then writes `state` before returning.
    func saveNow(_ state: ResumeState) {
        worker.drain()
        let started = Self.monotonicMilliseconds()
        let bytes = serialize(state)
        let failure = file.save(bytes)
        report(
            failure, items: state.items.count, bytes: bytes.count, milliseconds: Self.monotonicMilliseconds() - started)
        worker.stop()
    }

    /// The file's bytes, reusing the serialized items when they have not changed since.
    private func serialize(_ state: ResumeState) -> [UInt8] {
        if cachedItems?.version != state.itemsVersion {
            cachedItems = (state.itemsVersion, state.itemsBytes)
        }
        return state.fileBytes(items: cachedItems?.bytes)
    }

    private static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
    }

    /// Failures are said once each (a full disk would otherwise be logged every 5 s);
    /// successful saves at debug level, with their cost.
    private func report(_ failure: String?, items: Int, bytes: Int, milliseconds: Double?) {
        if failure == nil {
            let took = milliseconds.map { " in \(($0 * 10).rounded() / 10) ms" } ?? ""

            log.log(.debug, "saved the resume state (\(items) items, \(bytes) bytes)\(took)")
        }
        guard failure != lastFailure else { return }
        lastFailure = failure
        if let failure { log.error("cannot save the resume state: \(failure)", event: "state-failed") }
    }
}
