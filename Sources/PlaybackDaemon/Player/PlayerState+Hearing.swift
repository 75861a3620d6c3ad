import PlaybackEngine
import PlaybackModel

/// What was heard of each item (`Hearing`), taken from what the engine reports and from the
/// moves: where a pipeline began, where one halted, which pass is heard, and which move left an
/// item. The rules of what counts are the `Hearing` value's; here is only when each applies.
extension PlayerState {
    /// Pipeline number `pipeline` began at `frame` of the current item (`resumed`: the one
    /// paused in place went on, its passes numbered on).
    mutating func hearingRuns(pipeline: Int, at frame: Int, resumed: Bool = false) {
        guard let item = queue.current else { return }
        changeHearing {
            $0.runs(item, from: item.metadata.seconds(atFrame: frame), pipeline: pipeline, resumed: resumed)
        }
        hearingNotesPractice()
    }

    /// Phrase mode or an A-B loop plays the hearing under way: it is practice.
    private mutating func hearingNotesPractice() {
        if isPlayingPhrases || loopRange != nil { changeHearing { $0.practises() } }
    }

    /// A pipeline halted at `position` (a pause, a restart in place, a failed device, the end).
    mutating func hearingHalts(at position: EnginePosition) {
        guard let item = queue.current, item.id == position.itemID else { return }
        changeHearing { $0.stops(at: item.metadata.seconds(atFrame: position.frame)) }
    }

    /// The engine is heard at `heard` at `now`: a new pass of the running pipeline (the next
    /// item reached by itself, a repeat of the item) begins a hearing of its own; an A-B loop's
    /// next pass (`loop`: the loop as it was before this pass began) a new run of the same one, from the
    /// loop's start, or its end once the last pass is over. A phrase's repetitions are one run.
    mutating func hearingObserves(_ heard: EnginePosition, now: Double, loop loopBefore: LoopRange?) {
        guard transport == .playing, !heard.isGap, let item = queue.current, item.id == heard.itemID,
            let pipeline = start.runningPipeline
        else { return }
        let pass = Hearing.Pass(pipeline: pipeline, segment: heard.segment)
        defer { hearingNotesPractice() }
        let again = hearing.current?.item.id == item.id
        if let under = hearing.current {
            guard let before = under.pass, before.pipeline == pipeline, heard.segment > before.segment else { return }
            if again, let range = loopBefore {
                let next = abLoop.range(in: item.id) == nil ? range.end : range.start
                return changeHearing { $0.loops(from: range.end, to: next, pass: pass) }
            }
            if again && (queue.repeatMode != .one || isPlayingPhrases) { return changeHearing { $0.continues(pass) } }
        }
        // The pass began where the item starts: repeated, from its beginning; else from its
        // bookmark, if it has one.
        let from = again ? 0 : bookmarks.position(for: item) ?? 0
        let began = min(now, now - max(0, item.metadata.seconds(atFrame: heard.frame) - from) / sound.rate(of: item))
        if let under = hearing.current, under.began == nil, let runFrom = under.runFrom, !again {
            // Heard through before the device said it had started: it began as long before
            // this pass as it played up to it (its fade into this one aside).
            let overlap = sound.crossfade.fades(from: under.item, to: item) ? sound.crossfade.seconds : 0
            let played = (under.item.metadata.duration - runFrom) / sound.rate(of: under.item) - overlap
            changeHearing { $0.audible(at: began - max(0, played)) }
        }
        changeHearing { $0.passes(to: item, from: from, pass: pass, began: began) }
    }

    /// The device began to play what the running pipeline wrote, and is heard at `heard` now:
    /// the hearing under way began as long ago as it has played since its run began.
    mutating func hearingAudible(_ heard: EnginePosition?, now: Double) {
        guard let under = hearing.current, let from = under.runFrom else { return }
        var began = now
        if let heard {
            // Already past it: the next pass tells when it began (`hearingObserves`).
            guard heard.itemID == under.item.id else { return }
            began -= max(0, under.item.metadata.seconds(atFrame: heard.frame) - from) / sound.rate(of: under.item)
        }
        changeHearing { $0.audible(at: began) }
    }

    /// A move left `item` heard up to `seconds`: for another item (skipped; removed or replaced
    /// when it left the queue), stopped in it, or paused or jumped within it (the run stops).
    mutating func hearingLeaves(
        _ item: QueueItem, at seconds: Double, forAnother: Bool, runStops: Bool, queueReplaced: Bool
    ) {
        if forAnother {
            let queued = queue.index(ofItem: item.id) != nil
            let how: HeardItem.Ending = queued ? .skipped : queueReplaced && !queue.isEmpty ? .replaced : .removed
            changeHearing { $0.ends(item, at: seconds, how) }
        } else if transport == .stopped {
            changeHearing { $0.ends(item, at: seconds, .stopped) }
        } else if runStops {
            changeHearing { $0.stops(at: seconds) }
        }
    }

    /// The daemon stops: the hearing under way ends where playback was held.
    mutating func hearingEndsAtExit() {
        guard let item = queue.current else { return }
        let seconds = heldSeconds
        changeHearing { $0.ends(item, at: seconds, .stopped) }
    }

    /// The events of the step: what was heard.
    mutating func takeEvents() -> [PlayerEvent] { changeHearing { $0.take() } }
}
