import ControlProtocol
import PlaybackModel

/// Resume: taking over a saved state at start, and the checks of its files and covers that
/// run on the prober thread.
extension PlayerService {
    /// Takes over a saved state at start: items whose file is gone are dropped (each is
    /// logged); a vanished current item gives way to the next one, from its start. The state
    /// comes back paused (stopped if it was), or playing when `play` and it was playing.
    /// Commands disabled by the configuration stay disabled.
    ///
    /// Checking a file costs a system call (about 1 µs here), so when the current item is
    /// there, the other items are checked on the prober thread and dropped when that is done:
    /// a queue of 10,000 items does not hold up the first reply by 10 ms.
    func restore(_ saved: ResumeState, fileExists: @escaping @Sendable (String) -> Bool, play: Bool) {
        var items = saved.items
        let checksLater = saved.currentIndex.map { fileExists(items[$0].path) } ?? true
        let checkedNow = checksLater ? saved.currentIndex.map { [$0] } ?? [] : Array(items.indices)
        var vanished: Set<Int> = []
        var lostArtwork: [QueueItem] = []
        for index in checkedNow {
            // When the others are checked later, the one checked now is the current item, found.
            guard checksLater || fileExists(items[index].path) else {
                vanished.insert(index)
                continue
            }
            // Extracted artwork lives in the runtime directory, which a reboot empties.
            if let artwork = items[index].metadata.artworkPath, !fileExists(artwork) {
                items[index].metadata.artworkPath = nil
                lostArtwork.append(items[index])
            }
        }
        logDropped(vanished.sorted().map { items[$0].path })
        let changes = note(state.restore(saved, items: items, vanished: vanished))
        soundChanged(changes.intersection([.volume, .equalizer]))
        driver.transportChanged(to: state.transport)
        itemIDs.skip(past: UInt64(saved.items.count))
        recoverArtwork(of: lostArtwork)
        if checksLater {
            checkFiles(of: items.indices.filter { $0 != saved.currentIndex }.map { items[$0] }, fileExists)
        }
        if play && saved.state == .playing && state.queue.current != nil,
            let failure = startEngine(atFrame: state.heldFrame)
        {
            log.error("resume: cannot play on: \(failure.message)")
        }
        publishChanges()
    }

    /// Checks the files of `items` (and their covers) on the prober thread; then drops the
    /// items whose file is gone and recovers the covers, as `restore` does for those it checks
    /// itself. Items removed or changed meanwhile are left as they are.
    private func checkFiles(of items: [QueueItem], _ fileExists: @escaping @Sendable (String) -> Bool) {
        guard !items.isEmpty else { return }
        probing.submit {
            var gone: [QueueItem] = []
            var lostArtwork: [QueueItem] = []
            for item in items {
                if !fileExists(item.path) {
                    gone.append(item)
                } else if let artwork = item.metadata.artworkPath, !fileExists(artwork) {
                    lostArtwork.append(item)
                }
            }
            return { [unowned self] in
                let goneIDs = Set(gone.map(\.id))
                let queued = state.queue.items
                let offsets = queued.indices.filter { goneIDs.contains(queued[$0].id) }
                logDropped(offsets.map { queued[$0].path })
                if !offsets.isEmpty, let failure = removeItems(at: Set(offsets)) {
                    log.error("resume: cannot play on: \(failure.message)")
                }
                let byID = Dictionary(state.queue.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let unchanged = lostArtwork.filter { byID[$0.id] == $0 }
                if !unchanged.isEmpty {
                    note(state.setArtworkPaths(Dictionary(uniqueKeysWithValues: unchanged.map { ($0.id, nil) })))
                    recoverArtwork(of: unchanged)
                }
                publishChanges()
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
    func recoverArtwork(of items: [QueueItem]) {
        guard !items.isEmpty else { return }
        let prober = self.prober
        let wanted = items.map { ($0.id, $0.path) }
        probing.submit { [prober] in
            var found: [UInt64: String] = [:]
            var byPath: [String: String?] = [:]
            for (id, path) in wanted {
                let artwork = byPath[path] ?? prober.artwork(of: path)
                byPath[path] = artwork
                if let artwork { found[id] = artwork }
            }
            return { [unowned self] in
                note(state.setArtworkPaths(found))
                publishChanges()
            }
        }
    }
}
