import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// What the state shows: the snapshot, the commands enabled, the page of the queue, and what
/// to save. None of these changes the state.
extension PlayerState {
    /// The now-playing snapshot at `frame` of the current item, measured at `timestamp`,
    /// advancing at `rate` (0 when it does not advance).
    /// The chapter is the one playing at `now` (the position extrapolated from the anchor).
    func snapshot(frame: Int, timestamp: Double, rate: Double, now: Double) -> NowPlaying {
        let item = queue.current
        var snapshot = NowPlaying(
            state: transport, item: item, elapsed: item?.metadata.seconds(atFrame: frame) ?? 0,
            rate: rate, timestamp: timestamp, queueIndex: loading?.index ?? queue.currentIndex,
            queueCount: loading?.count ?? queue.count,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode, volume: sound.volume,
            defaultRate: sound.playbackRate, replayGain: currentReplayGain(), routeChange: route.lastChange)
        snapshot.deviceError = transport == .interrupted ? deviceError : nil
        snapshot.crossfade = sound.crossfade
        (snapshot.singleMode, snapshot.consumeMode) = (queue.singleMode, queue.consumeMode)
        snapshot.outputEnabled = route.outputEnabled
        if let item {
            snapshot.chapter = CurrentChapter(item.metadata.chapters, at: snapshot.position(at: now))
            snapshot.sleepTimer = sleep.timer
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

    /// Why the remote command `name` is refused now: disabled (by the configuration or a
    /// client), or needing what the current item lacks (chapters, a position to seek to).
    func refusal(of name: CommandName) -> CommandFailure? {
        guard CommandCatalog.spec(name).isRemoteCommand, !currentAvailability.isEnabled(name) else { return nil }
        guard availability.isEnabled(name) else { return .disabled(name, because: nil) }
        let isLive = CommandAvailability.seekCommands.contains(name) && queue.current?.metadata.isSeekable == false
        return .disabled(name, because: isLive ? .liveStream : .noChapters)
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
            singleMode: queue.singleMode, consumeMode: queue.consumeMode,
            disabledCommands: availability.disabled, volume: sound.volume, equalizer: sound.equalizer,
            playbackRate: sound.playbackRate, phraseMode: phraseMode, crossfade: sound.crossfade,
            outputEnabled: route.outputEnabled ? nil : false,
            itemsVersion: ItemsVersion(queue: queueGeneration, revision: queue.itemsRevision))
    }

    /// The A-B loop of the current item; nil when none is set (a loop ends with its item).
    var loopRange: LoopRange? { abLoop.range(in: queue.current?.id) }

    /// Everything a front end shows, with the engine `observed` at `now`. While playing,
    /// `elapsed` and `timestamp` are the output thread's last measurement and the time it was
    /// taken (up to one device period ago), so the anchor carries no extrapolation error;
    /// otherwise the held position, now. Just past an item boundary not yet taken into the
    /// state, it shows the item heard.
    func view(_ observed: EngineDriver.Observation, now: Double) -> PlayerView {
        let (shown, frame, nowPlaying) = shownNow(observed, now: now)
        return PlayerView(
            nowPlaying: nowPlaying, availability: shown.currentAvailability, equalizer: sound.equalizer,
            replayGainMode: sound.replayGain.mode, resume: shown.resumeState(frame: frame),
            isLoading: loading != nil)
    }

    /// The view's snapshot alone, as `view` takes it: what a `nowPlaying` request answers.
    func nowPlaying(_ observed: EngineDriver.Observation, now: Double) -> NowPlaying {
        shownNow(observed, now: now).nowPlaying
    }

    /// The state as shown (at the item heard), the frame heard, and the snapshot.
    private func shownNow(
        _ observed: EngineDriver.Observation, now: Double
    ) -> (shown: PlayerState, frame: Int, nowPlaying: NowPlaying) {
        var shown = self
        var frame = heldFrame
        var timestamp = now
        // In a phrase's gap the position holds.
        var advances = transport == .playing && observed.isAudible
        if transport == .playing, let heard = observed.heard {
            advances = advances && !heard.isGap
            _ = shown.follow(toItem: heard.itemID)
            frame = heard.frame
            if let (measured, age) = observed.measured, measured.itemID == heard.itemID,
                measured.segment == heard.segment
            {
                frame = measured.frame
                timestamp -= age
            }
        }
        let snapshot = shown.snapshot(
            frame: frame, timestamp: timestamp, rate: advances ? observed.runningRate : 0, now: now)
        return (shown, frame, snapshot)
    }
}
