import PlaybackEngine
import PlaybackModel
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the loudness of the library's songs (docs/sound.md) on a thread that runs only
/// when nothing else wants the CPU or the disk (`pbd-analysis`, `SCHED_IDLE`, idle I/O), an
/// album at a time so that its loudness is gated over its tracks together. What it measures
/// goes to `store` (the library's writer) every two seconds and when the pass ends or stops.
/// A file that changed or went away while it was measured is not kept: the scan that follows
/// the change finds it, and the next pass measures it.
final class LibraryLoudness: @unchecked Sendable {
    private let worker: BackgroundWorker
    private let analysis: LoudnessAnalysis
    /// Raised by each pass and by `stop`: a pass whose number is no longer current ends.
    private let generation = Atomic<Int>(0)

    init(open: @escaping AudioDecoderFactory, loop: EventLoop) {
        analysis = LoudnessAnalysis(open: open)
        worker = BackgroundWorker(name: "pbd-analysis", loop: loop, idle: true)
    }

    /// Measures `groups` (each measured together), ending any pass before; hands the results
    /// to `store` on the analysis thread every `storeInterval` seconds (and at the end), with
    /// how many songs are done with them.
    func measure(_ groups: [[SongToMeasure]], store: @escaping (_ results: [MeasuredSong], _ done: Int) -> Void) {
        let mine = generation.add(1, ordering: .acquiringAndReleasing).newValue
        let isCancelled = { [self] in generation.load(ordering: .relaxed) != mine }
        worker.submit { [self] in
            var (done, pending) = (0, [MeasuredSong]())
            var stored = WallClock.monotonic()
            for group in groups {
                guard let measured = measure(group, isCancelled: isCancelled) else { break }
                done += group.count
                pending += measured
                if WallClock.monotonic() - stored >= Self.storeInterval {
                    store(pending, done)
                    (pending, stored) = ([], WallClock.monotonic())
                }
            }
            if !pending.isEmpty { store(pending, done) }
            return {}
        }
    }

    /// Seconds between two writes of what was measured: one transaction and one pushed status
    /// for every song (20 s songs go by 30 a second) cost playback's threads 8 times their own
    /// CPU (Scripts/bench 2h).
    static let storeInterval = 2.0

    /// Ends the pass running (what it measured is stored).
    func cancel() { generation.add(1, ordering: .releasing) }

    /// Ends the pass running and joins the thread.
    func stop() {
        generation.add(1, ordering: .releasing)
        worker.stop()
    }

    /// One group's measures, its album loudness set on each; nil when cancelled.
    private func measure(_ group: [SongToMeasure], isCancelled: () -> Bool) -> [MeasuredSong]? {
        var results: [(SongToMeasure, Result<MeasuredFile, LoudnessError>)] = []
        for song in group {
            if isCancelled() { return nil }
            guard let outcome = analysis.outcome(path: song.path, isCancelled: isCancelled) else { return nil }
            // Changed or gone meanwhile: not kept (the scan of the change comes first).
            guard Self.isUnchanged(song) else { continue }
            results.append((song, outcome))
        }
        let meters = results.compactMap { try? $0.1.get().meter }
        let album = group.count > 1 ? LoudnessMeter.albumLoudness(meters) : nil
        return results.map { song, outcome in
            switch outcome {
            case .success(let file):
                var loudness = file.loudness
                loudness.album = album
                return MeasuredSong(song: song, outcome: .success(loudness))
            case .failure(let error):
                return MeasuredSong(song: song, outcome: .failure(error))
            }
        }
    }

    /// Whether `song`'s file is still there with the size and modification time it was listed
    /// with.
    private static func isUnchanged(_ song: SongToMeasure) -> Bool {
        var status = stat()
        guard stat(song.path, &status) == 0 else { return false }
        let identity = LibraryWalk.identity(status)
        return identity.size == song.size && identity.modified == song.mtime
    }
}
