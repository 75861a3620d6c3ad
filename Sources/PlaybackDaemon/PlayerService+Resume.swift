import ControlProtocol
import PlaybackModel

extension PlayerService {
    /// What to save: the queue, the position heard now, the state and modes, and the
    /// commands disabled.
    func resumeState() -> ResumeState {
        let frame = playedFrame()
        let rate = queue.current.map { Double($0.metadata.sampleRate) } ?? 1
        return ResumeState(
            items: queue.items, currentIndex: queue.currentIndex, position: Double(frame) / rate, state: state,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode,
            shuffledOrder: queue.shuffleMode == .items ? queue.shuffledOrder : nil,
            disabledCommands: availability.disabled, volume: volume, equalizer: equalizer,
            playbackRate: playbackRate,
            itemsVersion: ItemsVersion(queue: queueGeneration, revision: queue.itemsRevision))
    }

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
        queueGeneration += 1
        queue = PlaybackQueue.restored(
            items: items, currentIndex: saved.currentIndex, repeatMode: saved.repeatMode,
            shuffleMode: saved.shuffleMode, shuffledOrder: saved.shuffledOrder)
        // The queue's own removal gives a vanished current item's place to the one after it.
        let position = queue.remove(at: vanished) ? 0 : saved.position
        itemIDs.skip(past: UInt64(saved.items.count))
        recoverArtwork(of: lostArtwork)
        if checksLater {
            checkFiles(of: items.indices.filter { $0 != saved.currentIndex }.map { items[$0] }, fileExists)
        }
        for name in saved.disabledCommands { _ = availability.set(name, enabled: false) }
        if let volume = saved.volume { setVolume(volume) }
        if let rate = saved.playbackRate { setPlaybackRate(rate) }
        if let equalizer = saved.equalizer { setEqualizer(equalizer) }
        guard let item = queue.current else { return }
        heldFrame = item.metadata.frame(at: position)
        if saved.state == .stopped { return }
        setState(.paused)
        if play && saved.state == .playing, let failure = startEngine(atFrame: heldFrame) {
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
                let offsets = queue.items.indices.filter { goneIDs.contains(queue.items[$0].id) }
                logDropped(offsets.map { queue.items[$0].path })
                if !offsets.isEmpty, let failure = removeItems(at: Set(offsets)) {
                    log.error("resume: cannot play on: \(failure.message)")
                }
                let queued = Dictionary(queue.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let unchanged = lostArtwork.filter { queued[$0.id] == $0 }
                if !unchanged.isEmpty {
                    queue.setArtworkPaths(Dictionary(uniqueKeysWithValues: unchanged.map { ($0.id, nil) }))
                    noteChange(.queue)
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
}

extension PlayerService {
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
                guard !found.isEmpty else { return }
                queue.setArtworkPaths(found)
                noteChange(.queue)
                if let current = queue.current?.id, found[current] != nil { noteChange(.item) }
                publishChanges()
            }
        }
    }
}
