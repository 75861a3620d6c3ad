import CSystemShim
import PlaybackEngine
import PlaybackModel
import Synchronization
import SystemSupport

/// Finds items' phrases on a worker of its own (`pbd-phrases`, background priority, as the
/// prober), one item at a time, so neither the event loop nor playback waits for it. A new
/// request cancels the analysis running for another item or other parameters. What it finds
/// (as it goes, then complete) reaches `onResult` on the event loop. Results are kept in the
/// `PhraseCache`. `stop` cancels what runs and joins the worker.
final class PhraseAnalyzer: @unchecked Sendable {
    /// What to analyse.
    struct Request: Equatable {
        var itemID: UInt64
        var path: String
        var parameters: PhraseParameters
        /// Where playback is about to play: analysed first.
        var startFrame: Int

        /// The same analysis, wherever it starts.
        func isSameAnalysis(as other: Request) -> Bool {
            itemID == other.itemID && path == other.path && parameters == other.parameters
        }
    }

    /// Phrases found for a request, or why there are none.
    struct Result {
        var request: Request
        var outcome: Swift.Result<PhraseList, DecoderError>
    }

    /// Raised by each request: an analysis whose number is no longer current stops.
    private let generation = Atomic<Int>(0)
    /// The request asked for last, until its analysis ends (event loop only).
    private var latest: Request?
    private let worker: BackgroundWorker
    private let open: AudioDecoderFactory
    private let cache: PhraseCache
    /// Receives each result on the event loop (set by the service).
    var onResult: (Result) -> Void = { _ in }

    init(open: @escaping AudioDecoderFactory, cache: PhraseCache, loop: EventLoop) {
        self.open = open
        self.cache = cache
        worker = BackgroundWorker(name: "pbd-phrases", loop: loop)
    }

    /// Analyses `request`'s item, unless that analysis is running or waiting already.
    func request(_ request: Request) {
        if let latest, latest.isSameAnalysis(as: request) { return }
        latest = request
        let mine = generation.add(1, ordering: .acquiringAndReleasing).newValue
        worker.submit { [self] in
            guard generation.load(ordering: .acquiring) == mine else { return {} }
            let result = analyse(request) { self.generation.load(ordering: .relaxed) != mine }
            return { [self] in
                if latest == request { latest = nil }
                if let result { onResult(result) }
            }
        }
    }

    /// Cancels what runs and joins the worker.
    func stop() {
        generation.add(1, ordering: .releasing)
        worker.stop()
    }

    /// The whole result (nil when cancelled); partial lists are delivered on the way.
    private func analyse(_ request: Request, isCancelled: @escaping () -> Bool) -> Result? {
        if let kept = cache.phrases(for: request.path, parameters: request.parameters) {
            return Result(request: request, outcome: .success(PhraseList(phrases: kept, isComplete: true)))
        }
        let analysis = PhraseAnalysis(parameters: request.parameters, open: open)
        do {
            guard
                let phrases = try analysis.run(
                    path: request.path, startFrame: request.startFrame, isCancelled: isCancelled,
                    partial: { [worker] found in
                        let partial = Result(
                            request: request, outcome: .success(PhraseList(phrases: found, isComplete: false)))
                        worker.deliver { [self] in onResult(partial) }
                    })
            else { return nil }
            cache.store(phrases, for: request.path, parameters: request.parameters)
            return Result(request: request, outcome: .success(PhraseList(phrases: phrases, isComplete: true)))
        } catch {
            return Result(request: request, outcome: .failure(error))
        }
    }
}
