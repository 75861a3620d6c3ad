import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// What the state shows: the snapshot, the page of the queue, what to save, and what the
/// engine is to play. None of these changes the state (`engineItems` may decide the next
/// shuffle cycle, as the queue's `upcoming` does, and is mutating for that).
extension PlayerState {
    /// Items the engine is told about ahead of the current one. The decoder runs at most the
    /// ring plus the device buffer (about 4 s) ahead, and the list is topped up at every item
    /// start, so only items shorter than about 60 ms each could exhaust it (then the next one
    /// starts a new pipeline).
    static let engineLookahead = 64

    /// The now-playing snapshot at `frame` of the current item, measured at `timestamp`,
    /// advancing at `rate` (0 when it does not advance).
    /// The chapter is the one playing at `now` (the position extrapolated from the anchor).
    func snapshot(frame: Int, timestamp: Double, rate: Double, now: Double) -> NowPlaying {
        let item = queue.current
        var snapshot = NowPlaying(
            state: transport, item: item, elapsed: item?.metadata.seconds(atFrame: frame) ?? 0,
            rate: rate, timestamp: timestamp, queueIndex: queue.currentIndex, queueCount: queue.count,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode, volume: volume,
            defaultRate: playbackRate, replayGain: currentReplayGain(), routeChange: routeChange)
        if let item {
            snapshot.chapter = CurrentChapter(item.metadata.chapters, at: snapshot.position(at: now))
            snapshot.sleepTimer = sleepTimer
            snapshot.loopRange = loopRange
            if phraseMode.isEnabled {
                snapshot.phraseMode = phraseMode
                if let step = phraseStep, let phrases = currentPhrases?.phrases, phrases.indices.contains(step.phrase) {
                    let phrase = phrases[step.phrase]
                    snapshot.phrase = CurrentPhrase(
                        number: step.phrase, count: phrases.count, start: phrase.start, end: phrase.end,
                        repetition: step.repetition, inGap: step.inGap)
                }
            }
        }
        return snapshot
    }

    /// Which commands are enabled for the current item (those that need chapters only when it
    /// has them; with no item, each answers that there is none, as `play` does).
    var currentAvailability: CommandAvailability {
        availability.forItem(
            hasChapters: queue.current.map { !$0.metadata.chapters.isEmpty } ?? true,
            isSeekable: queue.current?.metadata.isSeekable ?? true)
    }

    /// One page of the queue, in its own order.
    func queuePage(offset: Int, limit: Int) -> QueuePage {
        QueuePage(
            currentIndex: queue.currentIndex, count: queue.count, offset: offset,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode,
            items: Array(queue.items.dropFirst(offset).prefix(limit)))
    }

    /// What to save, with `frame` the position heard in the current item.
    func resumeState(frame: Int) -> ResumeState {
        ResumeState(
            items: queue.items, currentIndex: queue.currentIndex,
            position: queue.current?.metadata.seconds(atFrame: frame) ?? 0, state: transport,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode,
            shuffledOrder: queue.shuffleMode == .items ? queue.shuffledOrder : nil,
            disabledCommands: availability.disabled, volume: volume, equalizer: equalizer,
            playbackRate: playbackRate, phraseMode: phraseMode,
            itemsVersion: ItemsVersion(queue: queueGeneration, revision: queue.itemsRevision))
    }

    /// The equalizer and volume, as the engine takes them.
    var soundSettings: SoundSettings { SoundSettings(equalizer: equalizer, volume: volume / 100) }

    /// The rate `item` plays at: the chosen one, or 1 when it is shorter than the minimum.
    func rate(of item: QueueItem) -> Double {
        rateMinimumSeconds == 0 || item.metadata.duration >= rateMinimumSeconds ? playbackRate : 1
    }

    /// The current item and those that play after it (at most `engineLookahead`) at the same
    /// rate, as the engine takes them: each with its ReplayGain factor. An item with another
    /// rate starts a new pipeline: the stretcher is one for all it plays.
    /// An upcoming item other than the current one starts at its bookmark. For a pipeline
    /// starting at `frame` before the end of an A-B loop (nil: for the pipeline running, when
    /// it plays the loop), the current item ends there, and the passes left follow it, each
    /// from the loop's start to its end, then the rest of the item from the end (all of them
    /// while the loop is endless). The running pipeline is asked by its pass, not by the frame
    /// heard: that may run past a segment's end before the next segment is logged. In phrase
    /// mode, from the step playing (`phraseItems`).
    mutating func engineItems(startingAt frame: Int?) -> (current: EngineItem, upcoming: [EngineItem])? {
        guard let current = queue.current else { return nil }
        let rate = rate(of: current)
        let sequence = [current] + upcoming(limit: Self.engineLookahead).prefix { self.rate(of: $0) == rate }
        var items = sequence.indices.map { index in
            let item = sequence[index]
            let gain = replayGain(
                of: item, before: index == 0 ? previousInOrder : sequence[index - 1],
                after: index + 1 < sequence.count ? sequence[index + 1] : nil)
            let start = index > 0 && item.id != current.id ? startPosition(item) : nil
            return EngineItem(
                id: item.id, path: item.path, known: Self.knownFormat(of: item), gain: gain?.factor ?? 1,
                startFrame: start.map { item.metadata.frame(at: $0) } ?? 0)
        }
        if isPlayingPhrases, let step = phraseStep {
            items = phraseItems(from: step, template: items[0], after: items.dropFirst(), limit: Self.engineLookahead)
        } else if let loop = loopRange {
            let (start, end) = (current.metadata.frame(at: loop.start), current.metadata.frame(at: loop.end))
            if frame.map({ $0 < end }) ?? (loopFirstPass != nil) {
                var pass = items[0]
                (pass.startFrame, pass.endFrame) = (start, end)
                var rest = items[0]
                (rest.startFrame, rest.endFrame) = (end, nil)
                items[0].endFrame = end
                let left = loop.count == 0 ? Self.engineLookahead : max(0, loop.count - loop.pass)
                let after = loop.count == 0 ? [] : [rest] + items.dropFirst()
                items = [items[0]] + Array(repeating: pass, count: left) + after
            }
        }
        return (items[0], Array(items.dropFirst()))
    }

    /// What the queue knows of a stream's format and length, so that playing it does not wait
    /// on its server; nil for a file (opening it is quick and tells).
    static func knownFormat(of item: QueueItem) -> KnownFormat? {
        guard StreamURL.isStream(item.path) else { return nil }
        let metadata = item.metadata
        let format = AudioFormat(
            sampleRate: metadata.sampleRate, channels: metadata.channels,
            sampleFormat: (metadata.bitsPerSample ?? 16) > 16 ? .s32 : .s16)
        return KnownFormat(format: format, frames: metadata.isSeekable ? metadata.frame(at: metadata.duration) : nil)
    }

    /// The ReplayGain applied to the current item; nil when ReplayGain is off.
    func currentReplayGain() -> AppliedReplayGain? {
        guard replayGainSettings.mode != .off, let current = queue.current else { return nil }
        var after: QueueItem?
        if replayGainSettings.mode == .auto && queue.shuffleMode == .off {
            var walker = queue  // in order, `upcoming` decides nothing; a copy keeps this a read
            after = walker.upcoming(limit: 1).first
        }
        return replayGain(of: current, before: previousInOrder, after: after)
    }

    /// `auto` takes the album gain when the queue plays in order and an item next to this one
    /// shares its album; shuffled, every item is on its own (MPD does the same).
    private func replayGain(of item: QueueItem, before: QueueItem?, after: QueueItem?) -> AppliedReplayGain? {
        let inAlbum =
            queue.shuffleMode == .off
            && [before, after].contains { $0.map { $0.metadata.isSameAlbum(as: item.metadata) } ?? false }
        return replayGainSettings.gain(for: item.metadata, inAlbum: inAlbum)
    }

    /// The item played before the current one in queue order; nil when shuffled (no order to
    /// speak of) or at the first item.
    private var previousInOrder: QueueItem? {
        guard queue.shuffleMode == .off, let index = queue.currentIndex, index > 0 else { return nil }
        return queue.items[index - 1]
    }
}
