import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Saves the resume state off the event loop: `save` hands the latest state to a worker
/// thread, which writes it atomically; saves requested while one is pending collapse into one,
/// and writes are at least `minimumSpacing` apart (a client toggling a command 4,000 times a
/// second makes four writes a second, not a thousand). `saveNow` (at shutdown) waits for the
/// worker and writes on the calling thread.
final class StatePersister {
    /// Longest the saved position lags behind while playing (the periodic save).
    static let playingInterval = 5.0
    /// Shortest time between the end of one write and the start of the next, in seconds.
    static let minimumSpacing = 0.25

    private let worker: BackgroundWorker
    private let latest = Locked<ResumeState?>(nil)
    private var isScheduled = false
    private var lastFailure: String?
    private let log: DaemonLog
    /// The item lines of the file written last, which the next write copies from it while the
    /// items are the same. Touched only by the job running on the worker (and by `saveNow`
    /// after the worker is drained).
    private var writtenItems: WrittenItems?
    /// The item lines of the file read at start (`adopt`), for the next write to take as its own.
    private let adopted = Locked<WrittenItems?>(nil)

    private let spacingTimer: OneShotTimer
    /// When the last write ended (monotonic milliseconds).
    private var lastWriteEnd = -Double.infinity

    /// Writes a file atomically: the error text on failure, else the file as written, when
    /// the next write may copy from it (`StateFile.save`, or a stand-in in tests).
    typealias Writer = @Sendable (StateFileContent) -> (failure: String?, written: WrittenStateFile?)
    private let writeFile: Writer

    init(file: StateFile, loop: EventLoop, log: DaemonLog, writer: Writer? = nil) {
        self.log = log
        writeFile = writer ?? { [file] in file.save($0) }
        worker = BackgroundWorker(name: "pbd-state", loop: loop)
        spacingTimer = OneShotTimer(loop: loop)
    }

    /// Writes `state` soon, on the worker thread.
    func save(_ state: ResumeState) {
        latest.withLock { $0 = state }
        schedule()
    }

    /// Arranges a write of the latest state, unless one is already arranged.
    private func schedule() {
        guard !isScheduled else { return }
        isScheduled = true
        let wait = Self.minimumSpacing - (Self.monotonicMilliseconds() - lastWriteEnd) / 1000
        if wait > 0 {
            spacingTimer.arm(after: wait) { [unowned self] in write() }
        } else {
            write()
        }
    }

    /// Writes the latest state on the worker.
    private func write() {
        worker.submit { [unowned self] in
            let state = latest.withLock { pending in
                defer { pending = nil }
                return pending
            }
            guard let state else { return { [unowned self] in isScheduled = false } }
            let started = Self.monotonicMilliseconds()
            let (failure, bytes) = writeState(state)
            let milliseconds = Self.monotonicMilliseconds() - started
            return { [unowned self] in
                isScheduled = false
                lastWriteEnd = Self.monotonicMilliseconds()
                report(failure, items: state.items.count, bytes: bytes, milliseconds: milliseconds)
                // A save asked for while this one was written is still to do.
                if latest.withLock({ $0 != nil }) { schedule() }
            }
        }
    }

    /// Takes the item lines of the file the daemon read at start as the file written last: they
    /// are the items of `version`, and the next save copies them while the items are still
    /// those (after a restart, a 100,000-item queue is not serialized again to be saved).
    func adopt(_ lines: ItemLinesOnDisk, version: ItemsVersion) {
        adopted.withLock { $0 = WrittenItems(version: version, lines: lines) }
    }

    /// Ends the writer's thread (after the last `saveNow`, at exit).
    func stop() { worker.stop() }

    /// Waits for a pending write, then writes `state` before returning.
    func saveNow(_ state: ResumeState) {
        spacingTimer.cancel()
        worker.drain()
        let started = Self.monotonicMilliseconds()
        let (failure, bytes) = writeState(state)
        report(failure, items: state.items.count, bytes: bytes, milliseconds: Self.monotonicMilliseconds() - started)
        worker.stop()
    }

    /// Writes `state`, copying the item lines from the file written last when its items are
    /// these (else, or if that copy fails, serializing them anew): the error text on failure,
    /// and the file's size.
    private func writeState(_ state: ResumeState) -> (failure: String?, bytes: Int) {
        if let adopted = adopted.withLock({ adopted in
            defer { adopted = nil }
            return adopted
        }) {
            writtenItems = adopted
        }
        if let written = writtenItems, written.version == state.itemsVersion {
            let layout = written.lines.layout
            let header = state.header(columns: layout.columns, count: layout.count, lineStarts: layout.lineStarts)
            let (failure, file) = writeFile(
                StateFileContent(
                    header: header, items: .copy(written.lines.file, offset: layout.offset, count: layout.length)))
            if failure == nil {
                writtenItems = file.map { written.moved(to: $0, offset: header.count) }
                return (nil, header.count + layout.length)
            }
        }
        writtenItems = nil
        let lines = state.itemLines
        let header = state.header(columns: lines.columns, count: lines.count, lineStarts: lines.lineStarts)
        let (failure, file) = writeFile(StateFileContent(header: header, items: .bytes(lines.bytes)))
        if failure == nil, let file {
            let layout = StateItemLinesLayout(
                columns: lines.columns, count: lines.count, lineStarts: lines.lineStarts, offset: header.count,
                length: lines.bytes.count)
            writtenItems = WrittenItems(version: state.itemsVersion, lines: ItemLinesOnDisk(layout: layout, file: file))
        }
        return (failure, header.count + lines.bytes.count)
    }

    private static func monotonicMilliseconds() -> Double { WallClock.monotonic() * 1000 }

    private static func cost(_ milliseconds: Double?) -> String {
        milliseconds.map { " in \(($0 * 10).rounded() / 10) ms" } ?? ""
    }

    /// Failures are said once each (a full disk would otherwise be logged every 5 s), their
    /// repeats and successful saves at debug level.
    private func report(_ failure: String?, items: Int, bytes: Int, milliseconds: Double?) {
        if failure == nil {
            log.log(.debug, "saved the resume state (\(items) items, \(bytes) bytes)\(Self.cost(milliseconds))")
        }
        guard failure != lastFailure else {
            if let failure { log.log(.debug, "the resume state is still not saved: \(failure)") }
            return
        }
        lastFailure = failure
        if let failure { log.error("cannot save the resume state: \(failure)", event: "state-failed") }
    }
}

/// The item lines of the file written last (or read at start), and which items they are.
private struct WrittenItems {
    var version: ItemsVersion
    var lines: ItemLinesOnDisk

    /// The same lines in `file`, from `offset`.
    func moved(to file: WrittenStateFile, offset: Int) -> Self {
        var moved = self
        (moved.lines.file, moved.lines.layout.offset) = (file, offset)
        return moved
    }
}
