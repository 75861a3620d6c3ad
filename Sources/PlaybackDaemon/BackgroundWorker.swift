import PlaybackEngine
import SystemSupport

/// A thread for slow work the event loop must not wait for: probing files to enqueue,
/// writing the state file, finding phrases. Jobs run one at a time, in order. A job returns a
/// completion, which runs on the event loop when the job is done (and may `deliver` others on
/// the way), so the result is applied by the one owner of the state. The thread runs as
/// background work (`SCHED_BATCH`, nice 10), so a long enqueue does not compete with the event
/// loop for the CPU. Its owner stops it (`stop`), which joins the thread, before the daemon
/// exits.
final class BackgroundWorker: @unchecked Sendable {
    /// Runs on the worker; returns what the event loop then does.
    typealias Job = () -> (() -> Void)

    private struct Queue {
        var jobs: [UncheckedSendable<Job>] = []
        var completions: [UncheckedSendable<() -> Void>] = []
        var isBusy = false
        var isStopping = false
    }

    private let queue = Locked(Queue())
    private let wake = EventSignal()
    private let finished = EventSignal()
    private var thread: NamedThread?
    /// Whether the thread runs as idle work (`SCHED_IDLE`, idle I/O) instead of background.
    private let runsAsIdleWork: Bool

    /// A worker named `name`; `idle`: one that runs only when nothing else wants the CPU or
    /// the disk (a library's loudness analysis, hours of decoding).
    init(name: String, loop: EventLoop, idle: Bool = false) {
        runsAsIdleWork = idle
        loop.watch(finished.fileDescriptor) { [unowned self] _ in
            finished.reset()
            runCompletions()
        }
        let box = UncheckedSendable(self)
        thread = NamedThread(name: name) { box.value.work() }
    }

    /// Queues `job`.
    func submit(_ job: @escaping Job) {
        let boxed = UncheckedSendable(job)
        queue.withLock { $0.jobs.append(boxed) }
        wake.signal()
    }

    /// Whether no job is queued or running.
    var isIdle: Bool { queue.withLock { $0.jobs.isEmpty && !$0.isBusy } }

    /// Waits until every queued job ran, then runs their completions (event loop only).
    func drain() {
        while !isIdle { finished.wait(timeoutMilliseconds: 10) }
        runCompletions()
    }

    /// Hands `completion` to the event loop now, from the job running (a partial result).
    func deliver(_ completion: @escaping () -> Void) {
        let boxed = UncheckedSendable(completion)
        queue.withLock { $0.completions.append(boxed) }
        finished.signal()
    }

    /// Finishes the queued jobs and ends the thread; waits for it. Idempotent.
    func stop() {
        guard let thread else { return }
        queue.withLock { $0.isStopping = true }
        wake.signal()
        thread.join()
        self.thread = nil
        runCompletions()
    }

    private func runCompletions() {
        let completions = queue.withLock { queue in
            defer { queue.completions.removeAll() }
            return queue.completions
        }
        for completion in completions { completion.value() }
    }

    /// The nice value of the worker threads.
    static let niceness: Int32 = 10

    private func work() {
        if runsAsIdleWork {
            NamedThread.makeCurrentIdle()
        } else {
            NamedThread.makeCurrentBackground(niceness: Self.niceness)
        }
        while true {
            let next: UncheckedSendable<Job>? = queue.withLock { queue in
                guard !queue.jobs.isEmpty else {
                    queue.isBusy = false
                    return nil
                }
                queue.isBusy = true
                return queue.jobs.removeFirst()
            }
            guard let job = next else {
                if queue.withLock({ $0.isStopping }) { return }
                wake.wait()
                continue
            }
            let completion = UncheckedSendable(job.value())
            queue.withLock { $0.completions.append(completion) }
            finished.signal()
        }
    }
}
