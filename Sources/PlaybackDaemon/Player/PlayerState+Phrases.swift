import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// Phrase mode as a part of the state (`PhraseState` for the current item): the phrases known,
/// the step heard, and the engine items that play them (each pass of a phrase an item of its
/// own that ends at the phrase's end and is followed by its gap, so every boundary is
/// sample-exact).
extension PlayerState {
    /// Where phrase mode stands in the current item: the step heard, or the one a pipeline
    /// starts with; nil outside phrase mode's steps (and in another item).
    var phraseStep: PhraseStep? { phrases.step(in: queue.current) }

    private mutating func setPhraseStep(_ step: PhraseStep?) {
        let item = queue.current
        changePhrases { $0.setStep(step, in: item) }
    }

    var phraseMode: PhraseMode { phrases.mode }

    /// The parameters the current item is analysed with.
    func phraseParameters(for item: QueueItem) -> PhraseParameters { phrases.parameters(for: item) }

    /// The current item's phrases as far as they are known, with its parameters.
    var currentPhrases: PhraseList? { phrases.phrases(of: queue.current) }

    /// Why the current item has no phrases, when its analysis failed.
    var currentPhraseFailure: String? { phrases.failure(of: queue.current) }

    /// Whether phrase mode plays the current item phrase by phrase (it is on, and phrases are
    /// known).
    var isPlayingPhrases: Bool { phrases.isPlaying(queue.current) }

    mutating func setPhraseMode(_ mode: PhraseMode) -> ChangeSet {
        let item = queue.current
        return changePhrases { $0.setMode(mode, in: item) }
    }

    /// An analysis reported; a change only when it is the current item's.
    mutating func setPhrases(_ stored: StoredPhrases) -> ChangeSet {
        let item = queue.current
        return changePhrases { $0.setPhrases(stored, current: item) }
    }

    /// Analysis parameters for the current item alone; its phrases are found again.
    mutating func setPhraseParameters(_ parameters: PhraseParameters, for item: QueueItem) -> ChangeSet {
        let queued = Set(queue.items.map(\.id))
        return changePhrases { $0.setParameters(parameters, for: item, queued: queued) }
    }

    /// The engine plays `mark` (in its gap or not): the step heard.
    mutating func phraseHeard(mark: Int, inGap: Bool) -> ChangeSet {
        let step = isPlayingPhrases ? PhraseStep(mark: mark, inGap: inGap) : nil
        guard step != phraseStep else { return [] }
        setPhraseStep(step)
        return .phrase
    }

    /// Whether the engine plays the current item whole (no phrase `mark`) at `frame`, before
    /// the end of its last phrase, while phrase mode has phrases for it.
    func playsWholeBeforeLastPhrase(atFrame frame: Int, mark: Int) -> Bool {
        guard isPlayingPhrases, mark == 0, let item = queue.current, let last = currentPhrases?.phrases.last else {
            return false
        }
        return frame < item.metadata.frame(at: last.end)
    }

    /// Goes to `phrase`'s first repetition (a move between phrases); returns its start.
    mutating func moveToPhrase(_ phrase: Int) -> Double? {
        guard let phrases = currentPhrases?.phrases, phrases.indices.contains(phrase) else { return nil }
        setPhraseStep(PhraseStep(phrase: phrase, repetition: 0))
        return phrases[phrase].start
    }

    /// The phrase playing or held, else the one at or after `seconds`, else the last.
    func phraseIndex(at seconds: Double) -> Int? {
        guard let list = currentPhrases, !list.phrases.isEmpty else { return nil }
        if let step = phraseStep, list.phrases.indices.contains(step.phrase) { return step.phrase }
        return list.index(atOrAfter: seconds) ?? list.phrases.count - 1
    }

    /// Where a pipeline starting at `frame` of the current item begins, and the step it plays:
    /// from a gap (paused in it), the next step's phrase from its start; within the step's
    /// phrase, that step; elsewhere the first repetition of the phrase at or after it, from
    /// that phrase's start when `frame` is in the silence before it.
    mutating func phraseStart(atFrame frame: Int) -> Int {
        guard isPlayingPhrases, let item = queue.current, let list = currentPhrases else {
            setPhraseStep(nil)
            return frame
        }
        let phrases = list.phrases
        let metadata = item.metadata
        if let step = phraseStep, step.inGap, phrases.indices.contains(step.phrase),
            frame == metadata.frame(at: phrases[step.phrase].end)
        {
            let next = step.next(repeats: phraseMode.repeats)
            guard phrases.indices.contains(next.phrase) else {
                setPhraseStep(nil)
                return frame
            }
            setPhraseStep(next)
            return metadata.frame(at: phrases[next.phrase].start)
        }
        if let step = phraseStep, phrases.indices.contains(step.phrase),
            (metadata.frame(at: phrases[step.phrase].start)..<metadata.frame(at: phrases[step.phrase].end))
                .contains(frame)
        {
            setPhraseStep(PhraseStep(phrase: step.phrase, repetition: step.repetition))
            return frame
        }
        guard let index = list.index(atOrAfter: metadata.seconds(atFrame: frame)) else {
            setPhraseStep(nil)
            return frame
        }
        setPhraseStep(PhraseStep(phrase: index, repetition: 0))
        return max(frame, metadata.frame(at: phrases[index].start))
    }

    /// The phrase steps from `step` on as engine items (at most `limit`), each a pass of
    /// `template` (the current item) over its phrase followed by its gap; then, past the last
    /// phrase, the rest of the item, and `after`.
    func phraseItems(
        from step: PhraseStep, template: EngineItem, after: ArraySlice<EngineItem>, limit: Int
    ) -> [EngineItem] {
        guard let item = queue.current, let list = currentPhrases else { return [template] + after }
        let metadata = item.metadata
        let rate = sound.rate(of: item)
        var items: [EngineItem] = []
        var step = step
        while items.count < limit, list.phrases.indices.contains(step.phrase) {
            let phrase = list.phrases[step.phrase]
            var pass = template
            (pass.startFrame, pass.endFrame) = (metadata.frame(at: phrase.start), metadata.frame(at: phrase.end))
            pass.gapFrames = FrameTime.frames(phraseMode.gap(after: phrase, rate: rate), rate: metadata.sampleRate)
            pass.mark = step.mark
            items.append(pass)
            step = step.next(repeats: phraseMode.repeats)
        }
        guard items.count < limit, let last = list.phrases.last else { return items }
        var rest = template
        (rest.startFrame, rest.endFrame) = (metadata.frame(at: last.end), nil)
        return items + [rest] + after
    }
}

/// Phrase mode's commands, and what it asks of the analysis.
extension PlayerState {
    mutating func setPhraseMode(_ change: PhraseModeChange) -> (CommandResult, ChangeSet) {
        let mode = change.applied(to: phraseMode)
        var changes: ChangeSet = mode.isEnabled ? changeABLoop { $0.drop() } : []
        let wasPlayingPhrases = isPlayingPhrases
        let modeChanges = setPhraseMode(mode)
        changes.formUnion(modeChanges)
        // The pipeline running plays what the mode asked for before: it starts again where it
        // is heard (from a gap, at the next step).
        if !modeChanges.isEmpty && (wasPlayingPhrases || isPlayingPhrases) { restartWhereHeard(fadesIn: false) }
        return (.success(.done), changes)
    }

    /// `nextPhrase`'s target from `index`: the next phrase; past the last, the next item (nil),
    /// or, while the analysis goes on, the last again.
    static func nextPhraseIndex(_ index: Int, _ list: PhraseList) -> Int? {
        guard index + 1 < list.phrases.count else { return list.isComplete ? nil : index }
        return index + 1
    }

    var nextPhraseIndex: (Int, PhraseList) -> Int? { Self.nextPhraseIndex }

    /// Moves to the phrase `target` picks from the one playing; nil from the last phrase: on
    /// to the next item.
    mutating func movePhrase(_ heard: EnginePosition?, to target: (Int, PhraseList) -> Int?) -> (
        CommandResult, ChangeSet
    ) {
        guard queue.current != nil else { return (noCurrentItem(), []) }
        let seconds = playedSeconds(heard)
        guard let list = currentPhrases, !list.phrases.isEmpty, let at = phraseIndex(at: seconds) else {
            return noPhrases()
        }
        // In the silence before a phrase (outside phrase mode's steps), the phrase heard is the
        // one before it (-1 before the first): the next phrase is the one coming.
        let index = phraseStep == nil && seconds < list.phrases[at].start ? at - 1 : at
        guard let next = target(index, list).map({ max(0, $0) }) else {
            let (result, changes) = nextTrack()
            return (
                result.map { _ in .position(queue.current.map { $0.metadata.seconds(atFrame: heldFrame) } ?? 0) },
                changes
            )
        }
        guard let start = moveToPhrase(next) else { return noPhrases() }
        let (result, changes) = seek(to: start)
        return (result, changes.union(.phrase))
    }

    mutating func listPhrases() -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        if let failure = currentPhraseFailure {
            return (
                .failure(
                    CommandFailure(
                        .commandFailed, "the phrases of \(StreamURL.redacted(item.path)) cannot be found: \(failure)")),
                []
            )
        }
        let changes = askForPhrases()
        return (.success(.phrases(currentPhrases ?? PhraseList(phrases: [], isComplete: false))), changes)
    }

    mutating func analyzePhrases(threshold: Double?, minimumSilence: Double?) -> (CommandResult, ChangeSet) {
        guard let item = queue.current else { return (noCurrentItem(), []) }
        var parameters = phrases.defaults
        if let threshold { parameters.threshold = threshold }
        if let minimumSilence { parameters.minimumSilence = minimumSilence }
        let changes = setPhraseParameters(parameters, for: item).union(askForPhrases())
        return (.success(.done), changes)
    }

    private mutating func noPhrases() -> (CommandResult, ChangeSet) {
        if let failure = currentPhraseFailure {
            return (.failure(CommandFailure(.commandFailed, "the item has no phrases: \(failure)")), [])
        }
        if let list = currentPhrases, list.isComplete {
            return (.failure(CommandFailure(.commandFailed, "the item has no phrases: it is silent")), [])
        }
        let changes = askForPhrases()
        return (
            .failure(CommandFailure(.commandFailed, "the item's phrases are not known yet: the analysis is running")),
            changes
        )
    }

    /// A command asked for the current item's phrases (`phraseAnalysisWanted` then asks the
    /// analysis for them).
    private mutating func askForPhrases() -> ChangeSet {
        let item = queue.current
        changePhrases { $0.ask(for: item) }
        return markLiveStreamPhraseless()
    }

    /// A live stream has no phrases: said once it is asked for them.
    private mutating func markLiveStreamPhraseless() -> ChangeSet {
        guard let item = queue.current, !item.metadata.isSeekable, currentPhraseFailure == nil else { return [] }
        return setPhrases(
            StoredPhrases(
                itemID: item.id, parameters: phraseParameters(for: item), failure: "a live stream has no phrases"))
    }

    /// The analysis the state wants run now: the current item's phrases (from where it plays),
    /// when phrase mode is on or a command asked for them, and they are neither known whole nor
    /// failed. Marks a live stream as having none.
    mutating func phraseAnalysisWanted(_ heard: EnginePosition?) -> (PhraseAnalyzer.Request?, ChangeSet) {
        guard let item = queue.current, phraseMode.isEnabled || phrases.isAsked(for: item) else { return (nil, []) }
        let changes = markLiveStreamPhraseless()
        let parameters = phraseParameters(for: item)
        if let stored = phrases.stored, stored.itemID == item.id, stored.parameters == parameters,
            stored.failure != nil || stored.list?.isComplete == true
        {
            return (nil, changes)
        }
        let request = PhraseAnalyzer.Request(
            itemID: item.id, path: item.path, parameters: parameters, startFrame: playedFrame(heard))
        return (request, changes)
    }

    /// An analysis reported: its phrases become the item's (when it is still current and the
    /// parameters still its own); a failure is kept as the reason there are none.
    mutating func phrasesFound(_ result: PhraseAnalyzer.Result) -> ChangeSet {
        guard let item = queue.current, item.id == result.request.itemID,
            result.request.parameters == phraseParameters(for: item)
        else { return [] }
        var stored = StoredPhrases(itemID: item.id, parameters: result.request.parameters)
        switch result.outcome {
        case .success(let list): stored.list = list
        case .failure(let error): stored.failure = "\(error)"
        }
        return setPhrases(stored)
    }
}
