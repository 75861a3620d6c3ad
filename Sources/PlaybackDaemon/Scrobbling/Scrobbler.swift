import PlaybackModel
import SystemSupport

/// One scrobbling service's subscriber to the listening history, on a thread of its own (the
/// event loop never waits on the network): it tells the service what plays now, and drains
/// the listens it has not had, oldest first, moving the service's cursor in the history only
/// once the service said it took them. So each listen reaches the service once, across
/// restarts and kill -9; a crash between the service's answer and the cursor's commit sends
/// the same listens again, with the same `listened_at`, which the services recognise.
///
/// Asleep while there is nothing to send (no wake-up when idle). After a failure it waits a
/// growing delay (1 s, doubling, at most 8 minutes) or as long as the service asked; a listen
/// refused as invalid is set aside with the reason (a refused batch is sent again one by one
/// to find it); refused credentials stop it until they change (read again at a reload, or
/// when the next listen counts).
final class Scrobbler: @unchecked Sendable {
    /// The longest delay between two tries.
    static let maximumDelay = 480.0
    /// A now-playing notice not sent within this long of the item becoming audible is dropped.
    static let nowPlayingWindow = 2.0

    let service: ScrobbleService
    private let historyPath: String
    private let makeClient: () -> Result<any ScrobbleClient, SecretFile.Problem>
    private let worker: BackgroundWorker
    private let said: (ScrobbleService, String?) -> Void
    private let inbox = Locked(Inbox())
    private let wake = EventSignal()

    private struct Inbox {
        var stopping = false
        /// What plays now, and when it was handed over (monotonic seconds).
        var playing: (listen: Listen, at: Double)?
        /// The credentials are to be read again.
        var reread = false
        /// Work for the thread between two requests (an authorisation's step).
        var jobs: [UncheckedSendable<(HTTPExchange) -> () -> Void>] = []
        var state: ScrobbleState
        init(state: ScrobbleState = ScrobbleState(service: "", enabled: true)) { self.state = state }
    }

    // The worker's own.
    private var client: (any ScrobbleClient)?
    /// The credentials the service refused (`credentialsKey`): not tried again.
    private var refusedCredentials: String?
    private var database: HistoryDatabase?
    private var delay = 0.0
    private var notBefore = 0.0
    /// A refused batch's last hearing: until the cursor passes it, listens go one by one.
    private var isolatingThrough: Int64?
    private lazy var exchange = HTTPExchange(isCancelled: { [inbox] in inbox.withLock { $0.stopping } })

    /// `makeClient` reads the credentials; `said` runs on the event loop with each new problem
    /// (nil: it is over).
    init(
        service: ScrobbleService, historyPath: String, loop: EventLoop,
        makeClient: @escaping () -> Result<any ScrobbleClient, SecretFile.Problem>,
        said: @escaping (ScrobbleService, String?) -> Void
    ) {
        self.service = service
        self.historyPath = historyPath
        self.makeClient = makeClient
        self.said = said
        worker = BackgroundWorker(name: service.threadName, loop: loop)
        inbox.withLock { $0.state = ScrobbleState(service: service.rawValue, enabled: true) }
    }

    /// Starts the thread; it sends the backlog the history holds, if any.
    func start() {
        worker.submit { [unowned self] in
            run()
            return {}
        }
    }

    /// The history recorded listens: look for them.
    func listensRecorded() { wake.signal() }

    /// `listen` began to play: tell the service (once, within `nowPlayingWindow`).
    func playing(_ listen: Listen) {
        inbox.withLock { $0.playing = (listen, WallClock.monotonic()) }
        wake.signal()
    }

    /// The settings were reloaded: read the credentials again.
    func reread() {
        inbox.withLock { $0.reread = true }
        wake.signal()
    }

    /// Runs `job` on the thread, between two requests, with its HTTP client; what it returns
    /// runs on the event loop. The credentials are read again after it.
    func perform(_ job: @escaping (HTTPExchange) -> () -> Void) {
        inbox.withLock {
            $0.jobs.append(UncheckedSendable(job))
            $0.reread = true
        }
        wake.signal()
    }

    /// How it stands now.
    var state: ScrobbleState { inbox.withLock { $0.state } }

    /// Ends the thread, cutting a request short (within about a second); waits for it.
    func stop() {
        inbox.withLock { $0.stopping = true }
        wake.signal()
        worker.stop()
    }

    // MARK: - The worker

    private func run() {
        while true {
            let (stopping, playing, jobs) = inbox.withLock { inbox in
                defer { (inbox.playing, inbox.jobs) = (nil, []) }
                return (inbox.stopping, inbox.playing, inbox.jobs)
            }
            if stopping { return }
            for job in jobs { worker.deliver(job.value(exchange)) }
            let reread = inbox.withLock { inbox in
                defer { inbox.reread = false }
                return inbox.reread
            }
            if reread { client = nil }
            countPending()
            guard let client = authorisedClient() else {
                sleep(until: nil)
                continue
            }
            let now = WallClock.monotonic()
            if now < notBefore {
                sleep(until: notBefore)
                continue
            }
            if let playing, now - playing.at <= Self.nowPlayingWindow {
                tellPlaying(playing.listen, client: client)
                continue
            }
            guard let batch = nextBatch(client), !batch.isEmpty else {
                sleep(until: nil)
                continue
            }
            submit(batch, client: client)
        }
    }

    /// The client, its credentials read again when there is none; nil when they cannot be read
    /// or the service refused them.
    private func authorisedClient() -> (any ScrobbleClient)? {
        if let client { return client }
        switch makeClient() {
        case .success(let fresh):
            guard fresh.credentialsKey != refusedCredentials else { return nil }
            refusedCredentials = nil
            client = fresh
            update { $0.authorised = true }
            return fresh
        case .failure(let problem):
            update {
                $0.authorised = false
                $0.lastError = problem.description
            }
            return nil
        }
    }

    /// The history, opened the first time it is there; nil before.
    private func history() throws(SQLiteError) -> HistoryDatabase? {
        if database == nil && FileSystem.isRegularFile(historyPath) {
            database = try HistoryDatabase(path: historyPath)
        }
        return database
    }

    /// The state's counts, from the history as it is now.
    private func countPending() {
        do throws(SQLiteError) {
            guard let database = try history() else { return }
            let (sentAt, setAside) = try database.scrobbleRecord(for: service.rawValue)
            let pending = try database.pendingCount(for: service.rawValue)
            update {
                $0.pending = pending
                $0.setAside = setAside
                $0.lastSent = sentAt
            }
        } catch {
            update { $0.lastError = "the listening history cannot be read: \(error)" }
        }
    }

    /// The listens to send next, oldest first; nil while there is no history.
    private func nextBatch(_ client: any ScrobbleClient) -> [HistoryDatabase.PendingListen]? {
        do throws(SQLiteError) {
            let limit = isolatingThrough == nil ? client.batchLimit : 1
            return try history()?.pending(for: service.rawValue, limit: limit)
        } catch {
            failed("the listening history cannot be read: \(error)", after: nil)
            return nil
        }
    }

    private func tellPlaying(_ listen: Listen, client: any ScrobbleClient) {
        guard listen.isScrobblable, client.unsendable(listen) == nil else { return }
        // Not retried: by the next try it may no longer be true.
        if case .success(let reply) = exchange.perform(client.nowPlaying(listen)) {
            let answer = client.answer(reply, count: 0)
            if case .unauthorised(let reason) = answer.verdict { refuse(client, reason) }
            if let pause = answer.pause { notBefore = max(notBefore, WallClock.monotonic() + pause) }
        }
    }

    private func submit(_ batch: [HistoryDatabase.PendingListen], client: any ScrobbleClient) {
        let last = batch.last!.hearing
        var refused: [Int64: String] = [:]
        for pending in batch {
            if let reason = client.unsendable(pending.listen) { refused[pending.hearing] = reason }
        }
        let sendable = batch.filter { refused[$0.hearing] == nil }
        let answer: ScrobbleAnswer
        if sendable.isEmpty {
            answer = ScrobbleAnswer(.accepted(refused: [:]))
        } else {
            switch exchange.perform(client.submission(sendable.map(\.listen))) {
            case .success(let reply): answer = client.answer(reply, count: sendable.count)
            case .failure(let failure): answer = ScrobbleAnswer(.later(failure.description, after: nil))
            }
        }
        if let pause = answer.pause { notBefore = max(notBefore, WallClock.monotonic() + pause) }
        switch answer.verdict {
        case .accepted(let refusedByService):
            for (index, reason) in refusedByService where index < sendable.count {
                refused[sendable[index].hearing] = reason
            }
            advance(through: last, sent: !sendable.isEmpty, refused: refused)
        case .refused(let reason):
            if sendable.count == 1 {
                refused[sendable[0].hearing] = reason
                advance(through: last, sent: false, refused: refused)
            } else {
                isolatingThrough = last
            }
        case .unauthorised(let reason):
            refuse(client, reason)
        case .later(let reason, let after):
            failed(reason, after: after)
        }
    }

    /// The service took (or refused for good) every listen up to `hearing`.
    private func advance(through hearing: Int64, sent: Bool, refused: [Int64: String]) {
        do throws(SQLiteError) {
            let now = WallClock.now()
            try database?.advance(service.rawValue, through: hearing, sentAt: sent ? now : nil, refused: refused)
            delay = 0
            if let through = isolatingThrough, hearing >= through { isolatingThrough = nil }
            update {
                $0.lastError = refused.values.first.map { "set aside a listen: \($0)" }
                if sent { $0.lastSent = now }
            }
        } catch {
            failed("the listening history cannot be written: \(error)", after: nil)
        }
    }

    /// The service refused the credentials: stop until they change.
    private func refuse(_ client: any ScrobbleClient, _ reason: String) {
        refusedCredentials = client.credentialsKey
        self.client = nil
        update {
            $0.authorised = false
            $0.lastError = "the credentials were refused (\(reason)): waiting for new ones"
        }
    }

    /// A try failed for now: wait the growing delay, or `after` when longer.
    private func failed(_ reason: String, after: Double?) {
        delay = delay == 0 ? 1 : min(Self.maximumDelay, delay * 2)
        notBefore = WallClock.monotonic() + max(delay, after ?? 0)
        update { $0.lastError = reason }
    }

    /// Sleeps until woken, or until `deadline` (monotonic seconds).
    private func sleep(until deadline: Double?) {
        let milliseconds = deadline.map { Int32(max(1, min(Double(Int32.max), ($0 - WallClock.monotonic()) * 1000))) }
        wake.wait(timeoutMilliseconds: milliseconds ?? -1)
    }

    /// Changes the state; a new problem (or the end of one) is said on the event loop.
    private func update(_ change: (inout ScrobbleState) -> Void) {
        let (before, after) = inbox.withLock { inbox in
            let before = inbox.state.lastError
            change(&inbox.state)
            return (before, inbox.state.lastError)
        }
        guard before != after else { return }
        let (said, service) = (said, service)
        worker.deliver { said(service, after) }
    }
}
