import PlaybackModel

/// Takes a saved state into the player at start: a long queue's head shown while the rest is
/// read, then the whole, with the items whose files are gone dropped (the current item's file
/// checked at once, the others on the prober thread), and the covers a reboot removed extracted
/// again. Each is a step of the service's. Event loop only.
final class ResumeRestorer {
    private unowned let service: PlayerService

    init(service: PlayerService) { self.service = service }

    /// Shows a long queue's head (`StateFile.Loaded.head`) while the rest is read: its current
    /// item, paused (stopped if it was), where it stands in the whole. Nothing is checked or
    /// played yet; commands wait for `restore` (or `abandonLoading`).
    func restoreHead(_ head: ResumeState, loading: QueueLoading) {
        service.step { state, _ in state.restore(head, vanished: [], loading: loading) }
    }

    /// The long queue being read could not be: the daemon goes on empty, and what waited runs.
    func abandonLoading() {
        service.step { state, _ in state.abandonLoading() }
        service.queueIsWhole()
    }

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
        service.itemIDs.skip(past: UInt64(saved.items.count))
        let result = service.step { state, _ in
            var changes = state.restore(saved, vanished: vanished)
            // Extracted artwork lives in the runtime directory, which a reboot empties.
            changes.formUnion(
                state.setArtworkPaths(Dictionary(uniqueKeysWithValues: check.lostArtwork.map { ($0.id, nil) })))
            if play && saved.state == .playing && state.queue.current != nil {
                changes.formUnion(state.startPlaying(at: state.heldFrame))
            }
            return (.success(.done), changes)
        }
        if case .failure(let failure) = result { service.log.error("resume: cannot play on: \(failure.message)") }
        recoverArtwork(of: check.lostArtwork)
        checkFiles(of: checksLater ? saved.items : [], except: current?.id, fileExists)
        service.queueIsWhole()
    }

    /// Checks the files of `items` (and their covers) on the prober thread, and learns each
    /// queued file's identity; then drops the items whose file is gone and recovers the
    /// covers, as `restore` does for those it checks itself. Items removed or changed
    /// meanwhile are left as they are. The item `checked` was checked already (the list is
    /// filtered there, not on the event loop: 100,000 items take milliseconds to copy).
    private func checkFiles(
        of items: [QueueItem], except checked: UInt64?, _ fileExists: @escaping @Sendable (String) -> Bool
    ) {
        let everything = service.state.queue.items
        service.probing.submit {
            let (check, identified) = (
                QueueFileCheck(items.filter { $0.id != checked }, fileExists: fileExists),
                QueueFileCheck.identified(everything)
            )
            return { [unowned self] in
                // Each pass over the queue is skipped when there is nothing to look for: this
                // runs on the event loop, and the queue can hold 100,000 items.
                let goneIDs = Set(check.gone.map(\.id))
                let queued = service.state.queue.items
                let offsets = goneIDs.isEmpty ? [] : queued.indices.filter { goneIDs.contains(queued[$0].id) }
                logDropped(offsets.map { queued[$0].path })
                let lostIDs = Set(check.lostArtwork.map(\.id))
                let byID = Dictionary(
                    (lostIDs.isEmpty ? [] : queued.filter { lostIDs.contains($0.id) }).map { ($0.id, $0) },
                    uniquingKeysWith: { first, _ in first })
                let unchanged = check.lostArtwork.filter { byID[$0.id] == $0 }
                if identified.count >= PlayerService.largeChange { service.releaseHeapSoon() }
                let result = service.step { state, moment in
                    state.setFileIdentities(identified, of: everything)
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
                if case .failure(let failure) = result {
                    service.log.error("resume: cannot play on: \(failure.message)")
                }
                recoverArtwork(of: unchanged)
            }
        }
    }

    /// One warning for each of the first ten items dropped because their file is gone, then
    /// one for the rest.
    private func logDropped(_ paths: [String]) {
        for path in paths.prefix(10) { service.log.warning("resume: dropped \(path): the file is gone") }
        if paths.count > 10 {
            service.log.warning("resume: dropped \(paths.count - 10) more items whose files are gone")
        }
    }

    /// Extracts again, on the prober thread, the covers a reboot removed, and gives them back
    /// to the items (a `queue` change; an `item` change when the current one got its cover).
    private func recoverArtwork(of items: [QueueItem]) {
        guard !items.isEmpty else { return }
        service.probing.submit { [prober = service.prober] in
            let found = prober.artwork(of: items)
            return { [unowned self] in service.step { state, _ in state.setArtworkPaths(found) } }
        }
    }
}
