import Synchronization

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
    /// Told (on the control loop) when a write fails; said once per distinct failure.
    private let onFailure: (String) -> Void

    init(file: StateFile, loop: ControlLoop, onFailure: @escaping (String) -> Void) {
        self.file = file
        self.onFailure = onFailure
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
            let failure = state.flatMap(file.save)
            return { [unowned self] in
                isScheduled = false
                report(failure)
            }
        }
    }

    /// Waits for a pending write, then writes `state` before returning.
    func saveNow(_ state: ResumeState) {
        worker.drain()
        report(file.save(state))
        worker.stop()
    }

    private func report(_ failure: String?) {
        guard failure != lastFailure else { return }
        lastFailure = failure
        if let failure { onFailure(failure) }
    }
}
