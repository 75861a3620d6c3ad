import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

/// What reaches the service besides commands, each taken into the state in a step: the
/// engine's events, the prober's results (an enqueue, a restore's checks, covers found again),
/// a route change, a reload, the exit; and the commands that need files (the equalizer's
/// presets).
extension PlayerService {
    // MARK: The engine

    /// Runs on the event loop when the engine's event descriptor fires: what is the service's
    /// (a start heard, a boundary to wait for, what to log), then the rest in one step.
    func handleEngineEvents() {
        let events = driver.takeEvents()
        var reanchors = false
        for event in events {
            log.log(.debug, "engine event: \(event)")
            switch event {
            case .audible:
                // If the start was already announced (the device was slow), re-anchor clients.
                reanchors = !releaseDeferredChanges()
            case .itemStarted(let id, let segment, let audibleIn):
                driver.scheduleBoundary(id, segment: segment, after: audibleIn, now: WallClock.now())
            case .deviceFailed(let error, _):
                log.error("audio device '\(driver.deviceName)' failed: \(error)")
            case .itemsCutShort(let count, let reason):
                log.warning(
                    "\(count) item\(count == 1 ? "" : "s") ended early: \(reason.map { "\($0)" } ?? "decoding failed part-way")"
                )
            case .itemsSkipped(let count):
                log.warning("passed over \(count) upcoming item\(count == 1 ? "" : "s") that could not be opened")
            case .xrunsRecovered(let count):
                log.warning(
                    "audio device '\(driver.deviceName)' underran \(count) time\(count == 1 ? "" : "s") (xrun); recovered"
                )
            case .finished, .streamTitle:
                break
            }
        }
        let (device, reconnects) = (driver.deviceName, driver.deviceReconnects)
        let result = step { state, moment in
            var changes: ChangeSet = reanchors ? .position : []
            for event in events {
                switch event {
                case .finished(let last, let next):
                    changes.formUnion(state.pipelineFinished(last: last, next: next, now: moment.now))
                case .deviceFailed(let error, let position):
                    changes.formUnion(
                        state.deviceFailed(error, at: position, device: device, reconnects: reconnects, now: moment.now)
                    )
                case .streamTitle(let url, let title):
                    changes.formUnion(state.setStreamTitle(title, for: url))
                default: break
                }
            }
            return (.success(.done), changes)
        }
        if case .failure(let failure) = result {
            log.error("cannot continue with item \(state.queue.currentIndex ?? -1): \(failure.message)")
            if failure.status == .noSuchContent { step { state, _ in state.cannotContinue() } }
        }
    }

    // MARK: Enqueueing

    /// Expands and probes on the prober thread, then adds on the event loop and replies.
    /// Enqueues are applied in the order they arrived.
    func enqueueInBackground(
        _ paths: [String], placement: EnqueuePlacement, replace: Bool, play: Bool,
        reply: @escaping (CommandResult) -> Void
    ) {
        let (prober, ids) = (self.prober, itemIDs)
        probing.submit { [prober, ids] in
            let (items, rejected) = prober.probe(paths, limit: PlaybackQueue.maximumCount + 1, ids: ids)
            return { [unowned self] in
                reply(
                    step { state, moment in
                        state.enqueue(
                            items, rejected: rejected, placement: placement, replace: replace, play: play, at: moment)
                    })
            }
        }
    }

    /// Adds `items` the library found (their metadata known: nothing to probe).
    func enqueue(
        _ items: [QueueItem], rejected: [Rejection], placement: EnqueuePlacement, replace: Bool, play: Bool
    ) -> CommandResult {
        step { state, moment in
            state.enqueue(items, rejected: rejected, placement: placement, replace: replace, play: play, at: moment)
        }
    }

    // MARK: The route, a reload, the exit

    /// A route change a watcher saw: taken into the state (`PlayerState.routeChanged`),
    /// pushed, and logged once.
    func routeChanged(_ change: RouteChange) {
        let before = state.transport
        let result = step { state, moment in
            (.success(.done), state.followingMoves(at: moment) { $0.routeChanged(change) })
        }
        let failure: CommandFailure? = if case .failure(let failure) = result { failure } else { nil }
        let said = state.route.logLine(for: change, before: before, after: state.transport, failure: failure)
        log.log(said.level, said.line, event: said.event)
    }

    /// Applies reloaded settings (`PlayerState.apply`), and the pause hold time.
    func apply(_ new: DaemonSettings, replacing old: DaemonSettings) {
        driver.pauseHoldSeconds = new.pauseHoldSeconds
        step { state, _ in state.apply(new, replacing: old) }
    }

    /// Pushes the position again (the anchor drifted from what the device plays).
    func republishPosition() { step { _, _ in .position } }

    // MARK: Resume

    /// Takes over a saved state at start: items whose file is gone are dropped (each is
    /// logged); a vanished current item gives way to the next one, from its start. The state
    /// comes back paused (stopped if it was), or playing when `play` and it was playing.
    /// Commands disabled by the configuration stay disabled.
    ///
    /// When the current item's file is there, the other items are checked on the prober thread
    /// and dropped when that is done: a queue of 10,000 items does not hold up the first reply.
    func restore(_ saved: ResumeState, fileExists: @escaping @Sendable (String) -> Bool, play: Bool) {
        let current = saved.currentIndex.map { saved.items[$0] }
        let checksLater = current.map { fileExists($0.path) } ?? true
        let check = QueueFileCheck(checksLater ? current.map { [$0] } ?? [] : saved.items, fileExists: fileExists)
        let goneIDs = Set(check.gone.map(\.id))
        let vanished = Set(saved.items.indices.filter { goneIDs.contains(saved.items[$0].id) })
        logDropped(vanished.sorted().map { saved.items[$0].path })
        itemIDs.skip(past: UInt64(saved.items.count))
        let result = step { state, _ in
            var changes = state.restore(saved, vanished: vanished)
            // Extracted artwork lives in the runtime directory, which a reboot empties.
            changes.formUnion(
                state.setArtworkPaths(Dictionary(uniqueKeysWithValues: check.lostArtwork.map { ($0.id, nil) })))
            if play && saved.state == .playing && state.queue.current != nil {
                changes.formUnion(state.startPlaying(at: state.heldFrame))
            }
            return (.success(.done), changes)
        }
        if case .failure(let failure) = result { log.error("resume: cannot play on: \(failure.message)") }
        recoverArtwork(of: check.lostArtwork)
        checkFiles(of: checksLater ? saved.items.filter { $0.id != current?.id } : [], fileExists)
    }

    /// Checks the files of `items` (and their covers) on the prober thread, and learns each
    /// queued file's identity; then drops the items whose file is gone and recovers the
    /// covers, as `restore` does for those it checks itself. Items removed or changed
    /// meanwhile are left as they are.
    private func checkFiles(of items: [QueueItem], _ fileExists: @escaping @Sendable (String) -> Bool) {
        let everything = state.queue.items
        probing.submit {
            let (check, identities) = (
                QueueFileCheck(items, fileExists: fileExists), QueueFileCheck.identities(of: everything)
            )
            return { [unowned self] in
                let goneIDs = Set(check.gone.map(\.id))
                let queued = state.queue.items
                let offsets = queued.indices.filter { goneIDs.contains(queued[$0].id) }
                logDropped(offsets.map { queued[$0].path })
                let byID = Dictionary(queued.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let unchanged = check.lostArtwork.filter { byID[$0.id] == $0 }
                let result = step { state, moment in
                    state.setFileIdentities(identities)
                    var (result, changes) =
                        offsets.isEmpty
                        ? (.success(.done), [])
                        : state.moving(at: moment) {
                            $0.removeItems(at: Set(offsets))
                        }
                    changes.formUnion(
                        state.setArtworkPaths(Dictionary(uniqueKeysWithValues: unchanged.map { ($0.id, nil) })))
                    return (result, changes)
                }
                if case .failure(let failure) = result { log.error("resume: cannot play on: \(failure.message)") }
                recoverArtwork(of: unchanged)
            }
        }
    }

    /// One warning for each of the first ten items dropped because their file is gone, then
    /// one for the rest.
    private func logDropped(_ paths: [String]) {
        for path in paths.prefix(10) { log.warning("resume: dropped \(path): the file is gone") }
        if paths.count > 10 { log.warning("resume: dropped \(paths.count - 10) more items whose files are gone") }
    }

    /// Extracts again, on the prober thread, the covers a reboot removed, and gives them back
    /// to the items (a `queue` change; an `item` change when the current one got its cover).
    private func recoverArtwork(of items: [QueueItem]) {
        guard !items.isEmpty else { return }
        probing.submit { [prober] in
            let found = prober.artwork(of: items)
            return { [unowned self] in step { state, _ in state.setArtworkPaths(found) } }
        }
    }

    /// Ends the service's worker threads (the prober, phrase analysis, the bookmarks' writer)
    /// and waits for them: the last thing before the process exits.
    func stopWorkers() {
        probing.stop()
        phraseAnalyzer.stop()
        bookmarkStore.stop()
    }
}
