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
            disabledCommands: availability.disabled,
            itemsVersion: ItemsVersion(queue: queueGeneration, revision: queue.itemsRevision))
    }

    /// Takes over a saved state at start: items whose file is gone are dropped (each is
    /// logged); a vanished current item gives way to the next one, from its start. The state
    /// comes back paused (stopped if it was), or playing when `play` and it was playing.
    /// Commands disabled by the configuration stay disabled.
    func restore(_ saved: ResumeState, fileExists: (String) -> Bool, play: Bool) {
        var newIndex = [Int](repeating: -1, count: saved.items.count)
        var items: [QueueItem] = []
        var lostArtwork: [QueueItem] = []
        var vanished = 0
        for (index, item) in saved.items.enumerated() {
            guard fileExists(item.path) else {
                vanished += 1
                if vanished <= 10 { log.warning("resume: dropped \(item.path): the file is gone") }
                continue
            }
            newIndex[index] = items.count
            var item = item
            // Extracted artwork lives in the runtime directory, which a reboot empties.
            if let artwork = item.metadata.artworkPath, !fileExists(artwork) {
                item.metadata.artworkPath = nil
                lostArtwork.append(item)
            }
            items.append(item)
        }
        if vanished > 10 { log.warning("resume: dropped \(vanished - 10) more items whose files are gone") }
        var current = saved.currentIndex.map { newIndex[$0] }
        var position = saved.position
        if let old = saved.currentIndex, current == -1 {
            current = newIndex[(old + 1)...].first { $0 >= 0 }
            position = 0
        }
        let order = saved.shuffledOrder?.compactMap {
            newIndex.indices.contains($0) && newIndex[$0] >= 0 ? newIndex[$0] : nil
        }
        queueGeneration += 1
        queue = PlaybackQueue.restored(
            items: items, currentIndex: current, repeatMode: saved.repeatMode, shuffleMode: saved.shuffleMode,
            shuffledOrder: order)
        itemIDs.skip(past: UInt64(saved.items.count))
        recoverArtwork(of: lostArtwork)
        for name in saved.disabledCommands { _ = availability.set(name, enabled: false) }
        guard let item = queue.current else { return }
        let lastFrame = Int((item.metadata.duration * Double(item.metadata.sampleRate)).rounded())
        heldFrame = min(max(0, Int((position * Double(item.metadata.sampleRate)).rounded())), lastFrame)
        if saved.state == .stopped { return }
        setState(.paused)
        if play && saved.state == .playing, let failure = startEngine(atFrame: heldFrame) {
            log.error("resume: cannot play on: \(failure.message ?? "")")
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
