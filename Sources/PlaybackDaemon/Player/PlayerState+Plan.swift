import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// What the engine is to play, as the state says: the items from the current one on, with
/// their frames, gaps, marks and gains.
extension PlayerState {
    /// Items the engine is told about ahead of the current one. The decoder runs at most the
    /// ring plus the device buffer (about 4 s) ahead, and the list is topped up at every item
    /// start, so only items shorter than about 60 ms each could exhaust it (then the next one
    /// starts a new pipeline).
    static let engineLookahead = 64

    /// What the engine is to do now (`EnginePlan`), the sleep fade seen from `shown` (the
    /// snapshot of what is heard) at `now`. A start not made yet begins where phrase mode says
    /// (`phraseStart`: the step it starts with is recorded, hence the changes); a live stream
    /// at its live edge.
    mutating func plan(shown: NowPlaying?, now: Double) -> (EnginePlan, ChangeSet) {
        // A pause for a lost device does not keep the device: a sound server has moved its
        // stream to another sink, and `play` is to open the device anew, wherever it is then.
        let held = EnginePlan.Output.held(keepsDevice: !(transport == .paused && route.isPausedByLoss))
        var plan = EnginePlan(
            output: transport == .stopped ? .released : held, sound: sound.engineSettings,
            sleepFade: shown.flatMap { sleep.fade($0, now: now) })
        guard transport == .playing, let item = queue.current else {
            if transport == .playing { plan.output = .released }
            return (plan, [])
        }
        let running = start.runningPipeline == start.pipeline
        let live = !item.metadata.isSeekable
        var frame = start.frame
        var changes: ChangeSet = []
        if !running, let asked = frame {
            let step = phraseStep
            frame = phraseStart(atFrame: live ? 0 : asked)
            if phraseStep != step { changes.insert(.phrase) }
        }
        let items = running || frame != nil ? engineItems(startingAt: running ? nil : frame) : nil
        plan.output = .playing(
            EnginePlan.Start(
                pipeline: start.pipeline, frame: frame, fadesIn: start.fadesIn, rate: sound.rate(of: item),
                current: items?.current, upcoming: items?.upcoming ?? [], connectsAnew: live,
                fadingFrom: start.fadeOut.map(engineItem(fadingOut:))))
        return (plan, changes)
    }

    /// The item a pipeline not started yet begins with (what `plan` would hand the engine to
    /// open); nil when none is to start.
    var itemToStart: QueueItem? {
        transport == .playing && start.runningPipeline != start.pipeline ? queue.current : nil
    }

    /// The item a skip left, as the engine plays its fade out: from where it was heard, for
    /// the fade's frames, at its own ReplayGain.
    private func engineItem(fadingOut fade: PlannedStart.FadeOut) -> EngineItem {
        EngineItem(
            id: fade.item.id, path: fade.item.path, known: Self.knownFormat(of: fade.item),
            gain: replayGain(of: fade.item, before: nil, after: nil)?.factor ?? 1, startFrame: fade.frame,
            endFrame: fade.frame + fade.frames)
    }

    /// The current item and those that play after it (at most `engineLookahead`) at the same
    /// rate, as the engine takes them: each with its ReplayGain factor, and the frames it fades
    /// in over when the crossfade says so (seconds of listening time: media seconds times the
    /// rate). An item with another
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
        loudness.plays(current, measuring: sound.replayGain.usesMeasurement(for: current.metadata))
        let rate = sound.rate(of: current)
        let sequence = [current] + upcoming(limit: Self.engineLookahead).prefix { sound.rate(of: $0) == rate }
        var items = sequence.indices.map { index in
            let item = sequence[index]
            let gain = replayGain(
                of: item, before: index == 0 ? previousInOrder : sequence[index - 1],
                after: index + 1 < sequence.count ? sequence[index + 1] : nil)
            let start = index > 0 && item.id != current.id ? bookmarks.position(for: item) : nil
            // Phrase mode plays phrases, never fades (nor into the item after them).
            let fades = index > 0 && !isPlayingPhrases && sound.crossfade.fades(from: sequence[index - 1], to: item)
            return EngineItem(
                id: item.id, path: item.path, known: Self.knownFormat(of: item), gain: gain?.factor ?? 1,
                startFrame: start.map { item.metadata.frame(at: $0) } ?? 0,
                fadeInFrames: fades
                    ? FrameTime.frames(sound.crossfade.seconds * rate, rate: item.metadata.sampleRate) : 0)
        }
        if isPlayingPhrases, let step = phraseStep {
            items = phraseItems(from: step, template: items[0], after: items.dropFirst(), limit: Self.engineLookahead)
        } else if let loop = loopRange {
            let (start, end) = (current.metadata.frame(at: loop.start), current.metadata.frame(at: loop.end))
            if frame.map({ $0 < end }) ?? (abLoop.firstPass != nil) {
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
        guard sound.replayGain.mode != .off, let current = queue.current else { return nil }
        var after: QueueItem?
        if sound.replayGain.mode == .auto && queue.shuffleMode == .off {
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
        return sound.replayGain.gain(for: item.metadata, inAlbum: inAlbum, measured: loudness.loudness(of: item))
    }

    /// Files whose loudness the gain waits for: the current item and the next few, where
    /// ReplayGain takes their measure and it is not known yet. Live streams are not measured.
    mutating func loudnessWanted() -> [String] {
        guard sound.replayGain.mode != .off, sound.replayGain.analysis != .off, let current = queue.current else {
            return []
        }
        return ([current] + upcoming(limit: Self.loudnessLookahead)).filter {
            $0.metadata.isSeekable && !StreamURL.isStream($0.path) && !loudness.isSettled($0)
                && sound.replayGain.usesMeasurement(for: $0.metadata)
        }.map(\.path)
    }

    /// Items measured ahead of the current one.
    static let loudnessLookahead = 3

    /// A file's measure (or why there is none) arrived: kept for its items. The engine takes
    /// the upcoming items' new gains at the next plan; the current item's shows when it had
    /// not started yet.
    mutating func loudnessMeasured(_ outcome: Result<Loudness, LoudnessError>, for path: String)
        -> ChangeSet
    {
        let before = currentReplayGain()
        guard loudness.record(outcome, for: path) else { return [] }
        return currentReplayGain() != before ? .replayGain : []
    }

    /// The item played before the current one in queue order; nil when shuffled (no order to
    /// speak of) or at the first item.
    private var previousInOrder: QueueItem? {
        guard queue.shuffleMode == .off, let index = queue.currentIndex, index > 0 else { return nil }
        return queue.items[index - 1]
    }
}
