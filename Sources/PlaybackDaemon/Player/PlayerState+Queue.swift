import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The queue as part of the state: adding probed items, removing, moving, clearing, the modes,
/// what probing learns later (covers, a stream's titles, files' identities), and a restore.
extension PlayerState {
    /// Adds probed items at `placement`, emptying the queue first with `replace`. Returns the
    /// changes and the index of the first new item.
    mutating func insert(
        _ items: [QueueItem], placement: EnqueuePlacement, replace: Bool
    ) -> (changes: ChangeSet, firstNew: Int) {
        if replace { changeQueue { $0.removeAll() } }
        var changes: ChangeSet = .queue
        let hadCurrent = queue.current != nil
        if !hadCurrent { changes.insert(.item) }
        let firstNew: Int
        switch replace ? .end : placement {
        case .end: firstNew = queue.count
        case .next: firstNew = queue.currentIndex.map { $0 + 1 } ?? queue.count
        case .index(let index): firstNew = index
        }
        changeQueue { $0.insert(items, at: firstNew, playNext: placement == .next && !replace) }
        if !hadCurrent { hold(startFrame()) }
        return (changes, firstNew)
    }

    /// Removes the items at `offsets` (each in range). When the current item goes, the one
    /// that would have played next becomes current, from its start, or there is none.
    mutating func remove(at offsets: Set<Int>) -> (changes: ChangeSet, removedCurrent: Bool) {
        guard changeQueue({ $0.remove(at: offsets) }) else { return (.queue, false) }
        hold(startFrame())
        return ([.queue, .item, .position], true)
    }

    mutating func move(from: Int, to: Int) -> ChangeSet {
        changeQueue { $0.move(from: from, to: to) }
        return .queue
    }

    /// Empties the queue and stops.
    mutating func clear() -> ChangeSet {
        let changes: ChangeSet = queue.isEmpty ? [] : [.queue, .item]
        changeQueue { $0.removeAll() }
        hold(0)
        return changes.union(setTransport(.stopped))
    }

    /// Sets one of the queue's modes (repeat, single, consume): `.modes` when it changed.
    mutating func setMode<Mode: Equatable>(_ mode: WritableKeyPath<PlaybackQueue, Mode>, to value: Mode) -> ChangeSet {
        guard value != queue[keyPath: mode] else { return [] }
        changeQueue { $0[keyPath: mode] = value }
        return .modes
    }

    mutating func setShuffle(_ mode: ShuffleMode) -> ChangeSet {
        guard mode != queue.shuffleMode else { return [] }
        changeQueue { $0.setShuffle(mode) }
        return .modes
    }

    /// Gives the items at `indices` a priority (each index checked against the queue).
    mutating func setPriority(_ priority: UInt8, indices: [Int]) -> (CommandResult, ChangeSet) {
        if let outside = indices.first(where: { $0 >= queue.count }) { return (outOfRange(outside), []) }
        return (.success(.done), changeQueue { $0.setPriority(priority, at: indices) } ? .queue : [])
    }

    /// The item `left` was played (to its end, or skipped with `nextTrack`): with consume on it
    /// leaves the queue (`once`: and consume is off). The current item stays (a queue of one
    /// that repeats).
    mutating func consume(_ left: QueueItem?) -> ChangeSet {
        guard queue.consumeMode != .off, let left, let index = queue.index(ofItem: left.id),
            index != queue.currentIndex
        else { return [] }
        changeQueue { _ = $0.remove(at: [index]) }
        guard queue.consumeMode == .once else { return .queue }
        changeQueue { $0.consumeMode = .off }
        return [.queue, .modes]
    }

    /// Gives items their extracted covers back (nil: the cover is gone).
    mutating func setArtworkPaths(_ paths: [UInt64: String?]) -> ChangeSet {
        guard !paths.isEmpty else { return [] }
        changeQueue { $0.setArtworkPaths(paths) }
        let current = queue.current.map { paths[$0.id] != nil } ?? false
        return current ? [.queue, .item] : .queue
    }

    /// Gives the live stream at `url` the title it announced at `moment` (its items' artist and
    /// title); the stream heard begins a hearing of that title (`Hearing.retitles`).
    mutating func setStreamTitle(_ title: StreamTitle, for url: String, at moment: Moment) -> ChangeSet {
        let changed = changeQueue { queue in
            queue.updateMetadata(at: url) { metadata in
                guard !metadata.isSeekable else { return }
                metadata.artist = title.artist
                metadata.title = title.title
            }
        }
        guard !changed.isEmpty else { return [] }
        guard let current = queue.current, changed.contains(current.id) else { return .queue }
        let heard = moment.heard?.itemID == current.id ? playedSeconds(moment.heard) : nil
        changeHearing { $0.retitles(current, upTo: heard, now: moment.now) }
        return [.queue, .item]
    }

    /// Gives items the identities of their files (found after a restore, on the prober thread).
    mutating func setFileIdentities(_ identified: [QueueItem], of original: [QueueItem]) {
        changeQueue { $0.setFileIdentities(identified, of: original) }
    }

    /// The long queue being read could not be: the daemon goes on empty.
    mutating func abandonLoading() -> ChangeSet {
        guard loading != nil else { return [] }
        replaceQueue(with: PlaybackQueue())
        hold(0)
        return setTransport(.stopped).union([.queue, .item])
    }

    /// The items that follow the current one (`PlaybackQueue.upcoming`), which decides the
    /// next shuffle cycle when the list reaches it.
    mutating func upcoming(limit: Int) -> [QueueItem] { changeQueue { $0.upcoming(limit: limit) } }

    /// Takes over a saved state: its queue less the items at `vanished` (whose files are
    /// gone; a vanished current item gives way to the next one, from its start), its modes,
    /// disabled commands and sound settings. Paused where it was playing or paused. With
    /// `loading`, `saved` is a long queue's head: the snapshot shows where it stands meanwhile.
    mutating func restore(_ saved: ResumeState, vanished: Set<Int>, loading: QueueLoading? = nil) -> ChangeSet {
        replaceQueue(
            with: PlaybackQueue.restored(
                items: saved.items, currentIndex: saved.currentIndex, repeatMode: saved.repeatMode,
                shuffleMode: saved.shuffleMode, shuffledOrder: saved.shuffledOrder), loading: loading)
        // The queue's own removal gives a vanished current item's place to the one after it.
        let position = changeQueue { $0.remove(at: vanished) } ? 0 : saved.position
        changeQueue {
            $0.singleMode = saved.singleMode
            $0.consumeMode = saved.consumeMode
        }
        var changes: ChangeSet = [.queue, .item, .modes]
        for name in saved.disabledCommands { changes.formUnion(setEnabled(name, false)) }
        if let volume = saved.volume { changes.formUnion(changeSound { $0.setVolume(volume) }) }
        if let rate = saved.playbackRate { changes.formUnion(changeSound { $0.setPlaybackRate(rate) }) }
        if let equalizer = saved.equalizer { changes.formUnion(changeSound { $0.setEqualizer(equalizer) }) }
        if let mode = saved.phraseMode { changes.formUnion(setPhraseMode(mode)) }
        if let crossfade = saved.crossfade { changes.formUnion(changeSound { $0.setCrossfade(crossfade) }) }
        if let enabled = saved.outputEnabled { changes.formUnion(setOutputEnabled(enabled)) }
        guard let item = queue.current else { return changes }
        hold(item.metadata.frame(at: position))
        if saved.state != .stopped { changes.formUnion(setTransport(.paused)) }
        return changes
    }
}
