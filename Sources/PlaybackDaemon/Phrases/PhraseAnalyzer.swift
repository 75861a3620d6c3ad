import CSystemShim
import PlaybackEngine
import PlaybackModel
import Synchronization
import SystemSupport

/// Finds items' phrases on a thread of its own (`pbd-phrases`, background priority, as the
/// prober), one item at a time, so neither the event loop nor playback waits for it. A new
/// request cancels the analysis running for another item or other parameters. What it finds
/// (as it goes, then complete) reaches `onResult` on the event loop. Results are kept in the
/// `PhraseCache`.
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

    private struct Mailbox {
        var pending: Request?
        var running: Request?
        var results: [Result] = []
        var isStopping = false
    }

    private let mailbox = Locked(Mailbox())
    /// Raised to cancel the analysis running.
    private let generation = Atomic<Int>(0)
    private let wake = EventSignal()
    private let delivered = EventSignal()
    private let open: AudioDecoderFactory
    private let cache: PhraseCache
    private var thread: NamedThread?
    /// Receives each result on the event loop (set by the service).
    var onResult: (Result) -> Void = { _ in }

    init(open: @escaping AudioDecoderFactory, cache: PhraseCache, loop: EventLoop) {
        self.open = open
        self.cache = cache
        loop.watch(delivered.fileDescriptor) { [unowned self] _ in
            delivered.reset()
            let results = mailbox.withLock { mailbox in
                defer { mailbox.results.removeAll() }
                return mailbox.results
            }
            for result in results { onResult(result) }
        }
    }

    /// Analyses `request`'s item, unless that analysis is running or waiting already.
    func request(_ request: Request) {
        let isNew = mailbox.withLock { mailbox in
            if let running = mailbox.running, running.isSameAnalysis(as: request), mailbox.pending == nil {
                return false
            }
            if let pending = mailbox.pending, pending.isSameAnalysis(as: request) { return false }
            mailbox.pending = request
            return true
        }
        guard isNew else { return }
        generation.add(1, ordering: .releasing)
        if thread == nil {
            let box = UncheckedSendable(self)
            thread = NamedThread(name: "pbd-phrases") { box.value.work() }
        }
        wake.signal()
    }

    /// Cancels what runs and ends the thread.
    func stop() {
        mailbox.withLock { $0.isStopping = true }
        generation.add(1, ordering: .releasing)
        wake.signal()
        thread?.join()
        thread = nil
    }

    private func work() {
        _ = playbackd_make_this_thread_background(BackgroundWorker.niceness)
        while true {
            let next: Request? = mailbox.withLock { mailbox in
                mailbox.running = mailbox.isStopping ? nil : mailbox.pending
                mailbox.pending = nil
                return mailbox.running
            }
            guard let request = next else {
                if mailbox.withLock({ $0.isStopping }) { return }
                wake.wait()
                continue
            }
            analyse(request)
            mailbox.withLock { $0.running = nil }
        }
    }

    private func analyse(_ request: Request) {
        if let kept = cache.phrases(for: request.path, parameters: request.parameters) {
            return deliver(Result(request: request, outcome: .success(PhraseList(phrases: kept, isComplete: true))))
        }
        let mine = generation.load(ordering: .acquiring)
        let isCancelled = { self.generation.load(ordering: .relaxed) != mine }
        let analysis = PhraseAnalysis(parameters: request.parameters, open: open)
        do {
            guard
                let phrases = try analysis.run(
                    path: request.path, startFrame: request.startFrame, isCancelled: isCancelled,
                    partial: { found in
                        deliver(
                            Result(request: request, outcome: .success(PhraseList(phrases: found, isComplete: false))))
                    })
            else { return }
            cache.store(phrases, for: request.path, parameters: request.parameters)
            deliver(Result(request: request, outcome: .success(PhraseList(phrases: phrases, isComplete: true))))
        } catch {
            deliver(Result(request: request, outcome: .failure(error)))
        }
    }

    private func deliver(_ result: Result) {
        mailbox.withLock { $0.results.append(result) }
        delivered.signal()
    }
}
