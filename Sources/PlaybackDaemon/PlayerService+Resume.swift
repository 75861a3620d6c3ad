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
    func restore(_ saved: ResumeState, fileExists: (String) -> Bool, play: Bool) {
        var items = saved.items
        var vanished: Set<Int> = []
        var lostArtwork: [QueueItem] = []
        for index in items.indices {
            guard fileExists(items[index].path) else {
                vanished.insert(index)
                if vanished.count <= 10 { log.warning("resume: dropped \(items[index].path): the file is gone") }
                continue
            }
            // Extracted artwork lives in the runtime directory, which a reboot empties.
            if let artwork = items[index].metadata.artworkPath, !fileExists(artwork) {
                items[index].metadata.artworkPath = nil
                lostArtwork.append(items[index])
            }
        }
        if vanished.count > 10 { log.warning("resume: dropped \(vanished.count - 10) more items whose files are gone") }
        queueGeneration += 1
        queue = PlaybackQueue.restored(
            items: items, currentIndex: saved.currentIndex, repeatMode: saved.repeatMode,
            shuffleMode: saved.shuffleMode, shuffledOrder: saved.shuffledOrder)
        // The queue's own removal gives a vanished current item's place to the one after it.
        let position = queue.remove(at: vanished) ? 0 : saved.position
        itemIDs.skip(past: UInt64(saved.items.count))
        recoverArtwork(of: lostArtwork)
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
