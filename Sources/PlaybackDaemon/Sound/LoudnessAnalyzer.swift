import PlaybackEngine
import PlaybackModel
import Synchronization

/// Measures the loudness of queue items ahead of play (`PlayerState.loudnessWanted`) on a
/// worker of its own (`pbd-loudness`, background priority, as the prober), one file at a time,
/// each file once while it is asked for: at hundreds of times real time, the next item is
/// measured long before it starts. A corrupt or truncated file is measured as far as it
/// decodes. Each result reaches `onResult` on the event loop. `stop` cancels what runs and
/// joins the worker.
final class LoudnessAnalyzer: @unchecked Sendable {
    private let worker: BackgroundWorker
    private let analysis: LoudnessAnalysis
    /// Files asked for and not answered yet (event loop only).
    private var asked: Set<String> = []
    private let isStopping = Atomic<Bool>(false)
    /// Receives each file's measure, or why there is none, on the event loop (set by the service).
    var onResult: (String, Result<Loudness, LoudnessError>) -> Void = { _, _ in }

    init(open: @escaping AudioDecoderFactory, loop: EventLoop) {
        analysis = LoudnessAnalysis(open: open)
        worker = BackgroundWorker(name: "pbd-loudness", loop: loop)
    }

    /// Measures each of `paths` not asked for already.
    func request(_ paths: [String]) {
        for path in paths where asked.insert(path).inserted {
            worker.submit { [self] in
                let outcome = measure(path)
                return { [self] in
                    asked.remove(path)
                    if let outcome { onResult(path, outcome) }
                }
            }
        }
    }

    /// Cancels what runs and joins the worker.
    func stop() {
        isStopping.store(true, ordering: .releasing)
        worker.stop()
    }

    /// `path`'s measure; nil when stopped on the way.
    private func measure(_ path: String) -> Result<Loudness, LoudnessError>? {
        analysis.outcome(path: path) { isStopping.load(ordering: .relaxed) }.map { $0.map(\.loudness) }
    }
}
