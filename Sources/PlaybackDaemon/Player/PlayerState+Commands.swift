import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// What the state is told with each operation: what the engine is heard playing (nil when no
/// pipeline runs) and the time, in seconds since the epoch.
struct Moment {
    var heard: EnginePosition?
    var now: Double
}

/// The commands as operations on the state: `perform` is the table from typed command to
/// rule. Each returns the command's result and the changes it caused; what follows every move
/// (a bookmark, the sleep timer's aim) is added in one place (`PlayerState+Moves`), whichever
/// command moved. Commands that need files (the equalizer's presets, enqueueing) or the engine's
/// measurements (`nowPlaying`) are the service's.
extension PlayerState {
    mutating func perform(_ command: PlayerCommand, at moment: Moment) -> (CommandResult, ChangeSet) {
        moving(at: moment) { state in state.carryOut(command, at: moment) }
    }

    private mutating func carryOut(_ command: PlayerCommand, at moment: Moment) -> (CommandResult, ChangeSet) {
        let heard = moment.heard
        switch command {
        case .play: return play()
        case .pause: return pause()
        case .togglePlayPause: return transport == .playing ? pause() : play()
        case .stop: return (.success(.done), stop())
        case .nextTrack: return nextTrack()
        case .previousTrack: return previousTrack(heard)
        case .skipForward(let interval):
            return isPlayingPhrases
                ? movePhrase(heard, to: nextPhraseIndex)
                : skip(by: interval ?? availability.skipForwardIntervals[0], heard)
        case .skipBackward(let interval):
            return isPlayingPhrases
                ? movePhrase(heard) { index, _ in max(0, index - 1) }
                : skip(by: -(interval ?? availability.skipBackwardIntervals[0]), heard)
        case .changePlaybackPosition(let position): return seek(to: position)
        case .changeRepeatMode(let mode): return (.success(.done), setMode(\.repeatMode, to: mode))
        case .changeShuffleMode(let mode): return (.success(.done), setShuffle(mode))
        case .changeSingleMode(let mode): return (.success(.done), setMode(\.singleMode, to: mode))
        case .changeConsumeMode(let mode): return (.success(.done), setMode(\.consumeMode, to: mode))
        case .setPriority(let priority, let indices): return setPriority(priority, indices: indices)
        case .changePlaybackRate(let change):
            let before = currentRate
            let changes = changeSound { $0.setPlaybackRate(change.applied(to: $0.playbackRate)) }
            soundChanged(changes, rateBefore: before)
            return (.success(.done), changes)
        case .changeVolume(let change):
            return (.success(.done), changeSound { $0.setVolume(change.applied(to: $0.volume)) })
        case .setCrossfade(let seconds, let mode):
            var crossfade = sound.crossfade
            if let seconds { crossfade.seconds = seconds }
            if let mode { crossfade.mode = mode }
            return (.success(.done), changeSound { $0.setCrossfade(crossfade) })
        case .setReplayGainMode(let mode):
            let changes = changeSound { $0.setReplayGainMode(mode) }
            soundChanged(changes, rateBefore: currentRate)
            return (.success(.done), changes)
        case .setOutputEnabled(let wanted): return (.success(.done), setOutputEnabled(wanted ?? !route.outputEnabled))
        case .remove(let index, let count): return remove(at: index, count: count)
        case .move(let from, let to):
            guard from < queue.count else { return (outOfRange(from), []) }
            guard to < queue.count else { return (outOfRange(to), []) }
            return (.success(.done), move(from: from, to: to))
        case .shuffleQueue(let index, let count):
            guard index < queue.count || (index == 0 && queue.isEmpty) else { return (outOfRange(index), []) }
            let end = count.map { min(queue.count, index + $0) } ?? queue.count
            guard end - index > 1 else { return (.success(.done), []) }
            changeQueue { $0.reorderAtRandom(index..<end) }
            return (.success(.done), .queue)
        case .jump(let index):
            guard index < queue.count else { return (outOfRange(index), []) }
            return playCurrentItem(select(index))
        case .clear: return (.success(.done), clear())
        case .queue(let offset, let limit): return (.success(.queuePage(queuePage(offset: offset, limit: limit))), [])
        case .commands: return (.success(.commands(currentAvailability)), [])
        case .setCommandEnabled(let name, let enabled):
            let changes = setEnabled(name, enabled)
            return (.success(.commands(currentAvailability)), changes)
        case .nextChapter: return nextChapter(heard)
        case .previousChapter: return previousChapter(heard)
        case .chapters:
            guard let item = queue.current else { return (noCurrentItem(), []) }
            return (.success(.chapters(item.metadata.chapters)), [])
        case .setSleepTimer(let request):
            guard let item = queue.current else { return (noCurrentItem(), []) }
            let seconds = playedSeconds(heard)
            switch changeSleep({ $0.set(request, item: item, at: seconds, now: moment.now) }) {
            case .success(let changes): return (.success(.done), changes)
            case .failure(let failure): return (.failure(failure), [])
            }
        case .cancelSleepTimer: return (.success(.done), changeSleep { $0.end() })
        case .setLoopRange(let start, let end, let count):
            return setLoopRange(start: start, end: end, count: count, heard)
        case .clearLoopRange:
            let current = queue.current?.id
            return (.success(.done), changeABLoop { $0.set(nil, current: current) })
        case .setPhraseMode(let change): return setPhraseMode(change)
        case .nextPhrase: return movePhrase(heard, to: nextPhraseIndex)
        case .previousPhrase: return movePhrase(heard) { index, _ in max(0, index - 1) }
        case .replayPhrase: return movePhrase(heard) { index, _ in index }
        case .phrases: return listPhrases()
        case .analyzePhrases(let threshold, let minimumSilence):
            return analyzePhrases(threshold: threshold, minimumSilence: minimumSilence)
        case .bookmarks: return (.success(.bookmarks(bookmarks.bookmarks)), [])
        case .forgetBookmarks(let path):
            guard let path else {
                changeBookmarks { _ = $0.forgetAll() }
                return (.success(.done), [])
            }
            guard changeBookmarks({ $0.forget(path: path) }) else {
                return (.failure(CommandFailure(.noSuchContent, "no bookmark for \(path)")), [])
            }
            return (.success(.done), [])
        case .setEqualizerEnabled, .setEqualizerBand, .setEqualizerGains, .setEqualizerGlobalGain, .resetEqualizer:
            return changeEqualizer(command)
        }
    }

    // MARK: Transport

    mutating func play() -> (CommandResult, ChangeSet) {
        if transport == .playing { return (.success(.done), []) }
        guard route.outputEnabled else { return (.failure(.outputDisabled), []) }
        guard let changes = beginIfNeeded() else {
            return (.failure(CommandFailure(.noActionableNowPlayingItem, "the queue is empty")), [])
        }
        return (.success(.done), changes.union(startPlaying(at: heldFrame)))
    }

    mutating func pause() -> (CommandResult, ChangeSet) {
        guard queue.current != nil else {
            return (.failure(CommandFailure(.noActionableNowPlayingItem, "nothing is playing")), [])
        }
        return (.success(.done), transport == .stopped ? [] : setTransport(.paused))
    }

    // MARK: Moving in the queue and in the item

    /// The next item; with consume on, the one left leaves the queue (as MPD's `next`).
    mutating func nextTrack() -> (CommandResult, ChangeSet) {
        guard let left = queue.current else { return (noCurrentItem(), []) }
        guard let changes = advance() else { return (.success(.done), playOut().union(consume(left))) }
        let (result, moved) = playCurrentItem(changes)
        return (result, moved.union(consume(left)))
    }

    mutating func previousTrack(_ heard: EnginePosition?) -> (CommandResult, ChangeSet) {
        guard queue.current != nil else { return (noCurrentItem(), []) }
        guard let changes = retreat(elapsed: playedSeconds(heard)) else {
            // The item restarts: a seek to its start, answered as every previousTrack is.
            let (result, changes) = seek(to: 0)
            return (result.map { _ in .done }, changes)
        }
        return playCurrentItem(changes)
    }

    mutating func skip(by interval: Double, _ heard: EnginePosition?) -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        return seek(to: min(max(0, playedSeconds(heard) + interval), item.metadata.duration))
    }

    /// Moves to `seconds` in the current item, sample-accurately; the landed position.
    mutating func seek(to seconds: Double) -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        let frame = item.metadata.frame(at: seconds)
        var changes = moveHeld(to: frame)
        if transport == .playing { changes.formUnion(startPlaying(at: frame)) }
        return (.success(.position(item.metadata.seconds(atFrame: frame))), changes)
    }

    /// Plays (or, when not playing, holds) the current item from its start (a long item's
    /// bookmark), after a move that caused `changes`.
    mutating func playCurrentItem(_ changes: ChangeSet) -> (CommandResult, ChangeSet) {
        guard transport == .playing else { return (.success(.done), changes) }
        return (.success(.done), changes.union(startPlaying(at: heldFrame)))
    }

    mutating func nextChapter(_ heard: EnginePosition?) -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        let chapters = item.metadata.chapters
        let position = playedSeconds(heard)
        guard let index = chapters.index(at: position) else { return (.failure(.noChapters), []) }
        if position < chapters[index].start { return seek(to: chapters[index].start) }
        guard index + 1 < chapters.count else {
            // From the last chapter, on to the next item (mpv's `add chapter 1` does the same).
            let (result, changes) = nextTrack()
            return (
                result.map { _ in .position(queue.current.map { $0.metadata.seconds(atFrame: heldFrame) } ?? 0) },
                changes
            )
        }
        return seek(to: chapters[index + 1].start)
    }

    mutating func previousChapter(_ heard: EnginePosition?) -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        let chapters = item.metadata.chapters
        let position = playedSeconds(heard)
        guard let index = chapters.index(at: position) else { return (.failure(.noChapters), []) }
        let into = position - chapters[index].start
        if into > CommandCatalog.chapterRestartThreshold || index == 0 {
            return seek(to: into < 0 ? 0 : chapters[index].start)
        }
        return seek(to: chapters[index - 1].start)
    }

    // MARK: The queue

    mutating func remove(at index: Int, count: Int) -> (CommandResult, ChangeSet) {
        guard index < queue.count else { return (outOfRange(index), []) }
        let end = min(queue.count, index + count)
        let (result, changes) = removeItems(at: Set(index..<end))
        return (result.map { _ in .removed(count: end - index, queueCount: queue.count) }, changes)
    }

    /// Removes the items at `offsets` (each in range). When the current item goes, the one that
    /// would have played next takes its place from its start (playing on if playing), or the
    /// queue ends.
    mutating func removeItems(at offsets: Set<Int>) -> (CommandResult, ChangeSet) {
        let (changes, removedCurrent) = remove(at: offsets)
        guard removedCurrent else { return (.success(.done), changes) }
        guard queue.current != nil else { return (.success(.done), changes.union(playOut())) }
        return playCurrentItem(changes)
    }

    /// Adds probed items (an `enqueue` whose probing is done): at `placement`, replacing the
    /// queue with `replace`, playing the first new one with `play` (and, replacing, when
    /// playing). Items past the queue's capacity are refused with the reason.
    mutating func enqueue(
        _ probed: [QueueItem], rejected: [Rejection], placement: EnqueuePlacement, replace: Bool, play: Bool,
        at moment: Moment
    ) -> (CommandResult, ChangeSet) {
        moving(at: moment) { state in
            state.add(probed, rejected: rejected, placement: placement, replace: replace, play: play)
        }
    }

    private mutating func add(
        _ probed: [QueueItem], rejected: [Rejection], placement: EnqueuePlacement, replace: Bool, play: Bool
    ) -> (CommandResult, ChangeSet) {
        var rejected = rejected
        var items = probed
        let room = replace ? PlaybackQueue.maximumCount : queue.remainingCapacity
        if items.count > room {
            rejected += items[room...].map {
                Rejection(path: $0.path, reason: "the queue is full (\(PlaybackQueue.maximumCount) items)")
            }
            items.removeLast(items.count - room)
        }
        var outcome = EnqueueOutcome(added: items.map(\.id), rejected: rejected)
        guard !items.isEmpty else {
            let reasons = rejected.prefix(3).map { "\($0.path): \($0.reason)" }.joined(separator: "; ")
            let more = rejected.count > 3 ? " (and \(rejected.count - 3) more)" : ""
            return (
                .failure(
                    CommandFailure(.noSuchContent, "nothing playable: \(reasons)\(more)", outcome: .enqueued(outcome))),
                []
            )
        }
        let count = queue.count
        if case .index(let index) = placement, !replace, index > count {
            return (
                .failure(
                    CommandFailure(
                        .noSuchContent,
                        "index \(index) is past the end of the queue: it has \(count) items (insert at 0 to \(count))",
                        outcome: .enqueued(EnqueueOutcome(added: [], rejected: [])))), []
            )
        }
        let wasPlaying = transport == .playing
        var (changes, firstNew) = insert(items, placement: placement, replace: replace)
        if play || (replace && wasPlaying) {
            changes.formUnion(select(firstNew))
            changes.formUnion(startPlaying(at: heldFrame))
        }
        outcome.queueCount = queue.count
        return (.success(.enqueued(outcome)), changes)
    }

    // MARK: The A-B loop

    mutating func setLoopRange(start: Double, end: Double, count: Int, _ heard: EnginePosition?) -> (
        CommandResult, ChangeSet
    ) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        guard !phraseMode.isEnabled else {
            return (.failure(CommandFailure(.commandFailed, "phrase mode is on: turn it off for an A-B loop")), [])
        }
        let duration = item.metadata.duration
        guard end <= duration else {
            return (
                .failure(
                    CommandFailure(
                        .badRequest,
                        "'end' (\(JSONValue.number(end).serialized) s) is past the item's end (\(JSONValue.number(duration).serialized) s)"
                    )), []
            )
        }
        let changes = changeABLoop {
            $0.set(LoopRange(itemID: item.id, start: start, end: end, count: count), current: item.id)
        }
        // The running pipeline's item has no end before the loop's: it starts again where it
        // is heard, ending there (when it is before the end; after it, the loop waits for a
        // seek back).
        if playedFrame(heard) < item.metadata.frame(at: end) { restartWhereHeard(fadesIn: false) }
        return (.success(.done), changes)
    }

    // MARK: The equalizer

    /// An equalizer command that needs no preset file; answers with the new curve.
    mutating func changeEqualizer(_ command: PlayerCommand) -> (CommandResult, ChangeSet) {
        var new = sound.equalizer
        switch command {
        case .setEqualizerEnabled(let enabled):
            new.isEnabled = enabled
        case .setEqualizerBand(let index, let change):
            guard new.bands.indices.contains(index) else {
                return (
                    .failure(
                        CommandFailure(.badRequest, "'band' \(index) is outside the \(new.bands.count) bands (0-based)")
                    ), []
                )
            }
            new.bands[index] = change.applied(to: new.bands[index])
            new.preset = nil
        case .setEqualizerGains(let gains):
            guard gains.count == new.bands.count else {
                return (
                    .failure(
                        CommandFailure(.badRequest, "'gains' has \(gains.count) values for \(new.bands.count) bands")),
                    []
                )
            }
            for index in new.bands.indices { new.bands[index].gain = gains[index] }
            new.preset = nil
        case .setEqualizerGlobalGain(let gain):
            new.globalGain = gain
            new.preset = nil
        case .resetEqualizer:
            new = Equalizer(isEnabled: sound.equalizer.isEnabled)
        default:
            return (
                .failure(CommandFailure(.commandFailed, "\(command.name.rawValue) is not an equalizer command")), []
            )
        }
        return setEqualizer(new)
    }

    /// Takes `new` as the equalizer (a curve loaded, saved or changed); answers with it.
    mutating func setEqualizer(_ new: Equalizer) -> (CommandResult, ChangeSet) {
        if let problem = new.problem { return (.failure(CommandFailure(.badRequest, problem)), []) }
        return (.success(.equalizer(new, presets: nil)), changeSound { $0.setEqualizer(new) })
    }

    // MARK: Answers

    func noCurrentItem() -> CommandResult {
        let why = queue.isEmpty ? "the queue is empty" : "no current item"
        return .failure(CommandFailure(.noActionableNowPlayingItem, why))
    }

    func outOfRange(_ index: Int) -> CommandResult {
        let extent =
            queue.isEmpty
            ? "the queue is empty" : "the queue has \(queue.count) items (indexes 0 to \(queue.count - 1))"
        return .failure(CommandFailure(.noSuchContent, "no item at index \(index): \(extent)"))
    }
}
