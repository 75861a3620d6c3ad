import ControlProtocol
import PlaybackEngine
import PlaybackModel
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The music library (docs/library.md): the audio files under the library's folders, indexed
/// in SQLite (`LibrarySchema`), asked with queries that fold case and accents, each song with
/// a persistent id and its play statistics. Scans run on a thread of their own
/// (`pbd-library`, background priority) and only read what changed; an inotify watch keeps the
/// index current while the daemon runs. Queries are answered on the event loop from the index
/// as it stands. Its commands come from the daemon's command handler; `onChange` is told when
/// its status or contents change, to be pushed (`library`).
final class MusicLibrary {
    /// The songs and statistics a query or id list enqueues: with their metadata, nothing to
    /// probe.
    struct Selection {
        var songs: [LibrarySong]
        var unknown: [String]
    }

    let roots: [String]
    private let indexPath: String
    private let userPath: String
    private let openTags: AudioDecoderFactory
    private let worker: BackgroundWorker
    private let log: DaemonLog
    /// The library thread's connection (jobs only).
    private var writer: LibraryWriter?
    /// The event loop's connection, opened at its first use.
    private var reader: LibraryReader?
    /// Gives back what the reader's queries kept, a second after the last.
    private let readerRest: OneShotTimer
    private var watch: LibraryWatch?
    /// Scans asked for and not yet begun, by path (nil: everything) and whether full.
    private var pendingScans = 0
    private var scanning = false
    /// Whether the databases were opened (or are being): not until there is a library.
    private var isOpen = false
    /// Files read by the scan running, counted from its threads.
    private let scanned = ScanCounter()
    private var lastScanned = 0
    /// What the scan running reads in all.
    private var toRead = 0
    /// The counts of the index, counted on the library's thread when it is opened and when a
    /// scan ends (counting 100,000 songs' albums takes tens of milliseconds, too long for the
    /// event loop; progress is pushed hundreds of times a scan).
    private var counts: LibraryReader.Counts?
    /// The same, kept on the library's thread: a scan that changed no song counts only its
    /// failures again.
    private var countedOnThread: LibraryReader.Counts?
    /// Where a change of the status or the contents is told, on the event loop
    /// (`PlayerService.receive`).
    private let report: (SubsystemReport) -> Void
    /// Which songs' loudness is measured (`loudness-analysis`; a reload takes effect at once).
    private var analysisMode: LoudnessAnalysisMode
    /// Measures the songs' loudness after each scan, at idle priority.
    private let loudness: LibraryLoudness
    /// Songs with a measure of their file as it is, as of the pass running (or the last), and
    /// the songs that pass has still to measure.
    private var measured = 0
    private var toMeasure = 0

    init(
        roots: [String], indexPath: String, userPath: String, openTags: @escaping AudioDecoderFactory,
        analysis: LoudnessAnalysisMode = .untagged, loop: EventLoop, log: DaemonLog,
        report: @escaping (SubsystemReport) -> Void
    ) {
        self.report = report
        analysisMode = analysis
        loudness = LibraryLoudness(open: openTags, loop: loop)
        self.roots = roots
        self.indexPath = indexPath
        self.userPath = userPath
        self.openTags = openTags
        self.log = log
        worker = BackgroundWorker(name: "pbd-library", loop: loop)
        readerRest = OneShotTimer(loop: loop)
        watch = LibraryWatch(loop: loop)
        if watch == nil { log.warning("the library is not watched: inotify: \(LibraryWalk.describe(errno))") }
        watch?.onChanges = { [unowned self] folders in
            for folder in folders { update(path: folder, full: false) }
        }
    }

    /// Opens the index on the library's thread (rebuilding it when it cannot be used) and
    /// scans for what changed while the daemon was not running. Without a library (no folder
    /// there, and no index yet) nothing is made and nothing is said until one is asked for.
    func begin() {
        let hasFolder = roots.contains { access($0, F_OK) == 0 }
        guard hasFolder || access(indexPath, F_OK) == 0 else {
            log.log(.debug, "library: none of \(roots.joined(separator: ", ")) is there: no library")
            return
        }
        open()
        update(path: nil, full: false)
    }

    /// Opens the databases on the library's thread, once.
    private func open() {
        guard !isOpen else { return }
        isOpen = true
        let (indexPath, userPath, log) = (indexPath, userPath, log)
        worker.submit { [unowned self] in
            for directory in [indexPath, userPath].map({ String($0[..<$0.lastIndex(of: "/")!]) }) {
                if let problem = FileSystem.makeDirectories(directory) { log.error("library: \(problem)") }
            }
            do throws(SQLiteError) {
                let writer = try LibraryWriter(indexPath: indexPath, userPath: userPath)
                if let reason = writer.rebuilt { log.warning("library: \(reason): it is made anew from the files") }
                self.writer = writer
                let counts = try? LibraryReader.counts(in: writer.database)
                countedOnThread = counts
                return { [unowned self] in
                    reader = nil
                    self.counts = counts
                }
            } catch {
                log.error("library: cannot open \(indexPath): \(error)")
                return {}
            }
        }
    }

    /// Ends the watch, the analysis and the library's thread (after the job running).
    func end() {
        readerRest.cancel()
        watch = nil
        loudness.stop()
        worker.stop()
        writer = nil
    }

    // MARK: Commands

    /// Carries out a library command; `currentPath` is the item playing (a rating without a
    /// song's id is its). A rating is answered once it is written, the others at once.
    func handle(_ command: LibraryCommand, currentPath: String?, reply: @escaping (CommandResult) -> Void) {
        switch command {
        case .query(let query): reply(page(query))
        case .status: reply(.success(.libraryStatus(status)))
        case .failures(let offset, let limit):
            guard isOpen else { return reply(.success(.libraryFailures([], total: 0))) }
            reply(
                read { reader throws(SQLiteError) in
                    let (failures, total) = try reader.failures(offset: offset, limit: limit)
                    return .libraryFailures(failures, total: total)
                })
        case .update(let path, let full):
            if let path, !roots.contains(where: { path == $0 || path.hasPrefix(bytes: LibraryScan.folderPrefix($0)) }) {
                return reply(
                    .failure(
                        CommandFailure(
                            .badRequest, "\(path) is not inside the library (\(roots.joined(separator: ", ")))")))
            }
            update(path: path, full: full)
            reply(.success(.done))
        case .setRating(let id, let rating): setRating(rating, id: id, currentPath: currentPath, reply: reply)
        case .analyze(let full):
            guard analysisMode != .off else {
                return reply(
                    .failure(CommandFailure(.commandFailed, "the loudness analysis is off (loudness-analysis)")))
            }
            guard isOpen else { return reply(.failure(Self.failure(.notMade))) }
            analyze(again: full) { reply(.success(.done)) }
        }
    }

    /// A page of songs, albums or names.
    private func page(_ query: LibraryQuery) -> CommandResult {
        if let problem = LibraryPattern.problem(in: query.filters) {
            return .failure(CommandFailure(.badRequest, problem))
        }
        guard isOpen else {
            let none: LibraryPage.Items =
                query.entity == .songs ? .songs([]) : query.entity == .albums ? .albums([]) : .names([])
            return .success(.library(LibraryPage(items: none, total: 0)))
        }
        return read { reader throws(SQLiteError) in .library(try reader.page(query)) }
    }

    /// Rates the song `id` (empty: the song at `currentPath`); `reply` is told once it is written.
    private func setRating(_ rating: Int, id: String, currentPath: String?, reply: @escaping (CommandResult) -> Void) {
        let found: Result<Int64?, LibraryReadFailure> = withReader { reader throws(SQLiteError) in
            if let number = Int64(id) { return try reader.hasSong(number) ? number : nil }
            guard id.isEmpty, let currentPath else { return nil }
            return try reader.songID(at: currentPath)
        }
        switch found {
        case .failure(let error): return reply(.failure(Self.failure(error)))
        case .success(nil):
            let what =
                id.isEmpty
                ? (currentPath == nil ? "nothing is playing" : "the item playing is not in the library")
                : "no song has id \(id)"
            return reply(.failure(CommandFailure(.noSuchContent, what)))
        case .success(let song?):
            // Answered once written, so that a query after the reply reads the new rating (a
            // scan writing meanwhile delays it until its transaction ends).
            worker.submit { [unowned self] in
                do throws(SQLiteError) {
                    try writer?.setRating(rating, id: song)
                    return { reply(.success(.done)) }
                } catch {
                    return { reply(.failure(CommandFailure(.commandFailed, "the rating cannot be saved: \(error)"))) }
                }
            }
        }
    }

    /// The songs `selection` names: ids in their order (an album's in disc and track order),
    /// or a query's results.
    func songs(_ selection: LibrarySelection) -> Result<Selection, CommandFailure> {
        withReader { reader throws(SQLiteError) in
            switch selection {
            case .ids(let ids):
                let (songs, unknown) = try reader.songs(ids: ids)
                return Selection(songs: songs, unknown: unknown)
            case .query(var query):
                query.entity = .songs
                guard case .songs(let songs) = try reader.page(query).items else {
                    return Selection(songs: [], unknown: [])
                }
                return Selection(songs: songs, unknown: [])
            }
        }.mapError(Self.failure)
    }

    /// Records plays and skips on the library's thread.
    private func record(_ events: [SongStatistic]) {
        guard !events.isEmpty else { return }
        worker.submit { [unowned self] in
            do throws(SQLiteError) {
                try writer?.database.transaction { () throws(SQLiteError) in
                    for event in events { try writer?.record(event) }
                }
            } catch {
                log.error("library: cannot record plays: \(error)")
            }
            return {}
        }
    }

    /// The library's status now (its counts as of the last scan's end).
    var status: LibraryStatus {
        let counts = counts ?? LibraryReader.Counts()
        return LibraryStatus(
            state: scanning ? .scanning : .idle, songs: counts.songs, albums: counts.albums, artists: counts.artists,
            scanned: scanning ? scanned.count.load(ordering: .relaxed) : lastScanned, toRead: scanning ? toRead : 0,
            failed: counts.failed,
            updatedAt: counts.updatedAt, roots: roots, measured: measured, toMeasure: toMeasure)
    }

    // MARK: Loudness

    /// Lists the songs to measure on the library's thread, then measures them at idle
    /// priority (ending a pass that runs); `again`: every song, measured or not. `listed` runs
    /// once the pass has begun (the status counts its songs).
    func analyze(again: Bool, listed: @escaping () -> Void = {}) {
        guard analysisMode != .off, isOpen else { return listed() }
        let all = analysisMode != .untagged
        worker.submit { [unowned self] in
            guard let writer else { return listed }
            do throws(SQLiteError) {
                let (groups, measuredAmong) = try writer.songsToMeasure(all: all, again: again)
                let measured = try writer.measuredCount() - measuredAmong
                return { [unowned self] in
                    measure(groups, measuredBefore: measured)
                    listed()
                }
            } catch {
                log.error("library: cannot list the songs to measure: \(error)")
                return listed
            }
        }
    }

    /// Starts a pass over `groups` (event loop); `measuredBefore` songs outside them have a
    /// measure.
    private func measure(_ groups: [[SongToMeasure]], measuredBefore: Int) {
        let total = groups.reduce(0) { $0 + $1.count }
        (measured, toMeasure) = (measuredBefore, total)
        report(.libraryChanged)
        guard total > 0 else { return }
        let (worker, log) = (worker, log)
        // The status counts what is written, so a query after it finds the measures.
        loudness.measure(groups) { [unowned self] results, done in
            worker.submit { [unowned self] in
                do throws(SQLiteError) { try writer?.store(results) } catch {
                    log.error("library: cannot keep the songs' loudness: \(error)")
                }
                for case let (path, .failure(why)) in results.map({ ($0.song.path, $0.outcome) }) {
                    log.warning("library: cannot measure the loudness of \(path): \(why)")
                }
                return { [unowned self] in
                    (measured, toMeasure) = (measuredBefore + done, total - done)
                    report(.libraryChanged)
                }
            }
        }
    }

    // MARK: Scans

    /// Queues a scan of `path` (nil: every folder).
    func update(path: String?, full: Bool) {
        open()
        pendingScans += 1
        scanning = true
        let (roots, openTags, log, scanned, watch) = (roots, openTags, log, scanned, watch)
        worker.submit { [unowned self] in
            guard let writer else { return { [unowned self] in scanEnded(nil, counts: nil, unwatched: 0) } }
            scanned.count.store(0, ordering: .relaxed)
            let worker = self.worker
            var report: LibraryScanReport?
            do throws(SQLiteError) {
                report = try LibraryScan(writer: writer, openTags: openTags).run(
                    roots: roots, under: path, full: full, now: WallClock.now(),
                    planned: { total in worker.deliver { [unowned self] in planned(total) } }
                ) { read in
                    let total = scanned.count.add(read, ordering: .relaxed).newValue
                    if total / 500 != (total - read) / 500 { worker.deliver { [unowned self] in progress(total) } }
                }
            } catch {
                log.error(
                    "library: the scan of \(path ?? roots.joined(separator: ", ")) failed, the index is as it was: \(error)"
                )
            }
            // The folders are watched before the scan is said to have ended: a file copied in
            // right after must not fall between the walk and the watch. The watch keeps its own
            // copy of their paths, in one piece.
            let unwatched = report.flatMap { report in watch.map { $0.watch(report.folders) } } ?? 0
            report?.folders = []
            // What the scan held (the files known and read) goes back to the system, and the
            // write-ahead log is folded into the databases and emptied.
            try? writer.database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user.wal_checkpoint(TRUNCATE)")
            writer.database.releaseMemory()
            ProcessHeap.releaseFree()
            let unchanged = report.map { !$0.changedSongs } ?? false ? countedOnThread : nil
            let counts = try? LibraryReader.counts(in: writer.database, unchanged: unchanged)
            countedOnThread = counts
            if let report {
                log.log(
                    report.read + report.removed > 0 ? .info : .debug,
                    "library: scanned \(path ?? "everything"): \(report.read) read, \(report.removed) removed, \(report.failed) failed"
                )
            }
            return { [unowned self] in scanEnded(report, counts: counts, unwatched: unwatched) }
        }
        self.report(.libraryChanged)
    }

    private func planned(_ total: Int) {
        toRead = total
        self.report(.libraryChanged)
    }

    private func progress(_ count: Int) {
        lastScanned = count
        self.report(.libraryChanged)
    }

    private func scanEnded(_ report: LibraryScanReport?, counts: LibraryReader.Counts?, unwatched: Int) {
        pendingScans -= 1
        scanning = pendingScans > 0
        toRead = 0
        if let counts { self.counts = counts }
        if let report { lastScanned = report.read }
        if !scanning { analyze(again: false) }
        if unwatched > 0 {
            log.warning(
                "library: \(unwatched) folders are not watched (raise fs.inotify.max_user_watches); 'playbackctl library update' finds their changes"
            )
        }
        self.report(.libraryChanged)
    }

    // MARK: Reading

    private func read(_ body: (LibraryReader) throws(SQLiteError) -> CommandOutcome) -> CommandResult {
        withReader(body).mapError(Self.failure)
    }

    private func withReader<Value>(
        _ body: (LibraryReader) throws(SQLiteError) -> Value
    ) -> Result<Value, LibraryReadFailure> {
        guard isOpen else { return .failure(.notMade) }
        do throws(SQLiteError) {
            if reader == nil {
                guard let opened = try LibraryReader(indexPath: indexPath, userPath: userPath) else {
                    return .failure(.notMade)
                }
                reader = opened
            }
            defer { restReaderSoon() }
            return .success(try body(reader!))
        } catch {
            // An index made anew meanwhile: it is opened again next time.
            reader = nil
            return .failure(.sqlite(error))
        }
    }

    /// A daemon that answered a burst of queries holds what they read until the reader has
    /// rested a second (docs/performance.md: the library's memory).
    private func restReaderSoon() {
        readerRest.arm(after: 1) { [unowned self] in
            reader?.releaseMemory()
            ProcessHeap.releaseFree()
        }
    }

    private static func failure(_ error: LibraryReadFailure) -> CommandFailure {
        switch error {
        case .notMade: CommandFailure(.commandFailed, "the library is being made: try again in a moment")
        case .sqlite(let error): CommandFailure(.commandFailed, "the library cannot be read: \(error)")
        }
    }
}

/// Why the library could not be read: its index has no tables yet (the first scan, or a
/// rebuild, is making them), or SQLite refused.
enum LibraryReadFailure: Error {
    case notMade
    case sqlite(SQLiteError)
}

/// The library begins once the daemon is ready (a query before its first scan is answered
/// from the index as it is; nothing is pushed before `READY=1`) and stops before the player's
/// workers.
extension MusicLibrary: Subsystem {
    func ready(_ view: PlayerView) { begin() }
    /// The plays and skips in what a step heard are recorded (`SongStatistic`).
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        record(events.compactMap(SongStatistic.init))
    }
    func stop(_ last: PlayerView) { end() }
    /// A new `loudness-analysis`: off ends the pass running; another mode measures what it wants.
    func reload(_ settings: DaemonSettings) {
        guard settings.replayGain.analysis != analysisMode else { return }
        analysisMode = settings.replayGain.analysis
        if analysisMode == .off {
            loudness.cancel()
            toMeasure = 0
            report(.libraryChanged)
        } else {
            analyze(again: false)
        }
    }
}

/// The files a scan has read, counted from each of its threads.
private final class ScanCounter: Sendable {
    let count = Atomic<Int>(0)
}
