import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// What follows every move a command makes, whichever command made it (a new command that
/// moves playback gets all of it without being listed anywhere): the rule in one place.
extension PlayerState {
    /// Runs `operation` (a command) and adds what follows from the moves it made
    /// (`followingMoves`).
    mutating func moving(
        at moment: Moment, _ operation: (inout PlayerState) -> (CommandResult, ChangeSet)
    ) -> (CommandResult, ChangeSet) {
        var result: CommandResult = .success(.done)
        let changes = followingMoves(at: moment) { state in
            let (outcome, changes) = operation(&state)
            result = outcome
            return changes
        }
        return (result, changes)
    }

    /// Runs `operation` (a command, a sleep timer's pause, a lost device's) and adds what
    /// follows from the changes it made:
    /// - another item became current, or playback paused or stopped: the item left keeps its
    ///   bookmark where it was left;
    /// - the position jumped in the same item: its bookmark is where it landed;
    /// - another item or a jump: a sleep timer waiting for the end of the item or chapter aims
    ///   at the end of where playback is now;
    /// - any move: what was heard of the item left (`Hearing`): a hearing ends when the item is
    ///   left for another or stopped in, a run when it pauses or jumps;
    /// - another item while playing on, with crossfade on: the new pipeline fades out of the
    ///   item left from where it was heard (`skipFade`), when both play at one rate.
    mutating func followingMoves(at moment: Moment, _ operation: (inout PlayerState) -> ChangeSet) -> ChangeSet {
        let left = queue.current.map { (item: $0, seconds: playedSeconds(moment.heard)) }
        let wasPlaying = transport == .playing
        let pipeline = start.pipeline
        let skipFade = wasPlaying ? self.skipFade(heard: moment.heard) : nil
        let generation = queue.replacements
        let changes = operation(&self)
        if let skipFade, transport == .playing, start.pipeline != pipeline, let current = queue.current,
            current.id != skipFade.item.id, sound.rate(of: current) == sound.rate(of: skipFade.item)
        {
            changeStart { $0.fade(from: skipFade) }
        }
        let current = queue.current
        let otherItem = left?.item.id != current?.id
        let jumped = !otherItem && changes.contains(.position)
        if let left {
            hearingLeaves(
                left.item, at: left.seconds, forAnother: otherItem,
                runStops: wasPlaying && (jumped || transport != .playing),
                queueReplaced: queue.replacements != generation)
        }
        if let left, otherItem || (wasPlaying && transport != .playing) {
            changeBookmarks { _ = $0.record(left.item, at: left.seconds, now: moment.now) }
            // Stopped in the same item: back to where it starts, which that bookmark now says.
            if transport == .stopped && !otherItem { hold(startFrame()) }
        }
        let landed = heldSeconds
        if jumped, let current { changeBookmarks { _ = $0.record(current, at: landed, now: moment.now) } }
        if otherItem || jumped { changeSleep { $0.aim(item: current, at: landed) } }
        return changes
    }

    /// The fade out of the current item a skip would make now, heard at `heard`: nil when
    /// crossfade is off or its skip fade is 0, in phrase mode or an A-B loop, or for a live
    /// stream (its audio cannot be had again).
    private func skipFade(heard: EnginePosition?) -> PlannedStart.FadeOut? {
        let crossfade = sound.crossfade
        guard crossfade.isOn, crossfade.skipSeconds > 0, let item = queue.current, let heard,
            heard.itemID == item.id, !heard.isGap, item.metadata.isSeekable, !isPlayingPhrases, loopRange == nil
        else { return nil }
        // Seconds of listening: media seconds times the rate.
        let frames = FrameTime.frames(crossfade.skipSeconds * sound.rate(of: item), rate: item.metadata.sampleRate)
        return PlannedStart.FadeOut(item: item, frame: heard.frame, frames: frames)
    }

    /// Seconds into the current item at the held frame (where a move landed).
    var heldSeconds: Double { queue.current?.metadata.seconds(atFrame: heldFrame) ?? 0 }

    /// Saves where the current item is heard (every few seconds while a long one plays, and
    /// at exit).
    mutating func bookmarkCurrentItem(at moment: Moment) {
        guard let item = queue.current else { return }
        let seconds = playedSeconds(moment.heard)
        changeBookmarks { _ = $0.record(item, at: seconds, now: moment.now) }
    }

    /// The item `id` was played to its end: it starts from its beginning next time, and its
    /// hearing ends.
    mutating func itemFinished(_ id: UInt64, now: Double) {
        guard let item = queue.items.first(where: { $0.id == id }) else { return }
        changeBookmarks { _ = $0.record(item, at: item.metadata.duration, now: now) }
        changeHearing { $0.ends(item, at: item.metadata.duration, .finished) }
    }
}
