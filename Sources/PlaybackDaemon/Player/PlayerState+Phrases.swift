import PlaybackEngine
import PlaybackModel

/// The phrases of an item, as an analysis reported them.
struct StoredPhrases: Equatable {
    var itemID: UInt64
    var parameters: PhraseParameters
    /// Nil while none has been found yet, or when the item could not be analysed.
    var list: PhraseList?
    /// Why the item could not be analysed.
    var failure: String?
}

/// One step of phrase mode: a phrase, which of its repeats, and whether its gap plays.
struct PhraseStep: Equatable {
    var phrase: Int
    var repetition: Int
    var inGap = false

    /// The number the engine carries for it (`EngineItem.mark`; 0 means none).
    var mark: Int { 1 + phrase * Self.repeatsPerMark + repetition }

    init(phrase: Int, repetition: Int, inGap: Bool = false) {
        self.phrase = phrase
        self.repetition = repetition
        self.inGap = inGap
    }

    init?(mark: Int, inGap: Bool) {
        guard mark > 0 else { return nil }
        self.init(phrase: (mark - 1) / Self.repeatsPerMark, repetition: (mark - 1) % Self.repeatsPerMark, inGap: inGap)
    }

    /// Room for every repetition in a mark (more than `PhraseMode.repeatsRange` allows).
    static let repeatsPerMark = 16

    /// The step after this one's gap: the next repetition, else the next phrase's first.
    func next(repeats: Int) -> PhraseStep {
        repetition + 1 < repeats
            ? PhraseStep(phrase: phrase, repetition: repetition + 1) : PhraseStep(phrase: phrase + 1, repetition: 0)
    }
}

/// Phrase mode as a part of the state: the phrases known for the current item, the step
/// heard, and the engine items that play them (each pass of a phrase an item of its own that
/// ends at the phrase's end and is followed by its gap, so every boundary is sample-exact).
extension PlayerState {
    /// Where phrase mode stands in the current item: the step heard, or the one a pipeline
    /// starts with; nil outside phrase mode's steps (and in another item).
    var phraseStep: PhraseStep? {
        get { storedPhraseStep.flatMap { $0.itemID == queue.current?.id ? $0.step : nil } }
        set { storedPhraseStep = queue.current.flatMap { item in newValue.map { (item.id, $0) } } }
    }

    /// The parameters the current item is analysed with.
    func phraseParameters(for item: QueueItem) -> PhraseParameters {
        itemPhraseParameters[item.id] ?? phraseDefaults
    }

    /// The current item's phrases as far as they are known, with its parameters.
    var currentPhrases: PhraseList? {
        guard let item = queue.current, let stored = storedPhrases, stored.itemID == item.id,
            stored.parameters == phraseParameters(for: item)
        else { return nil }
        return stored.list
    }

    /// Why the current item has no phrases, when its analysis failed.
    var currentPhraseFailure: String? {
        guard let item = queue.current, let stored = storedPhrases, stored.itemID == item.id else { return nil }
        return stored.failure
    }

    /// Whether phrase mode plays the current item phrase by phrase (it is on, and phrases are
    /// known).
    var isPlayingPhrases: Bool { phraseMode.isEnabled && !(currentPhrases?.phrases.isEmpty ?? true) }

    mutating func setPhraseMode(_ mode: PhraseMode) -> ChangeSet {
        guard mode != phraseMode else { return [] }
        phraseMode = mode
        if !mode.isEnabled { phraseStep = nil }
        return .phrase
    }

    /// An analysis reported; a change only when it is the current item's.
    mutating func setPhrases(_ stored: StoredPhrases) -> ChangeSet {
        guard stored != storedPhrases else { return [] }
        storedPhrases = stored
        return stored.itemID == queue.current?.id ? .phrase : []
    }

    /// Analysis parameters for the current item alone; its phrases are found again.
    mutating func setPhraseParameters(_ parameters: PhraseParameters, for item: QueueItem) -> ChangeSet {
        itemPhraseParameters = itemPhraseParameters.filter { id, _ in queue.items.contains { $0.id == id } }
        itemPhraseParameters[item.id] = parameters
        phraseStep = nil
        return .phrase
    }

    /// The engine plays `mark` (in its gap or not): the step heard.
    mutating func phraseHeard(mark: Int, inGap: Bool) -> ChangeSet {
        let step = isPlayingPhrases ? PhraseStep(mark: mark, inGap: inGap) : nil
        guard step != phraseStep else { return [] }
        phraseStep = step
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
        phraseStep = PhraseStep(phrase: phrase, repetition: 0)
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
            phraseStep = nil
            return frame
        }
        let phrases = list.phrases
        let metadata = item.metadata
        if let step = phraseStep, step.inGap, phrases.indices.contains(step.phrase),
            frame == metadata.frame(at: phrases[step.phrase].end)
        {
            let next = step.next(repeats: phraseMode.repeats)
            guard phrases.indices.contains(next.phrase) else {
                phraseStep = nil
                return frame
            }
            phraseStep = next
            return metadata.frame(at: phrases[next.phrase].start)
        }
        if let step = phraseStep, phrases.indices.contains(step.phrase),
            (metadata.frame(at: phrases[step.phrase].start)..<metadata.frame(at: phrases[step.phrase].end))
                .contains(frame)
        {
            phraseStep = PhraseStep(phrase: step.phrase, repetition: step.repetition)
            return frame
        }
        guard let index = list.index(atOrAfter: metadata.seconds(atFrame: frame)) else {
            phraseStep = nil
            return frame
        }
        phraseStep = PhraseStep(phrase: index, repetition: 0)
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
        let rate = rate(of: item)
        var items: [EngineItem] = []
        var step = step
        while items.count < limit, list.phrases.indices.contains(step.phrase) {
            let phrase = list.phrases[step.phrase]
            var pass = template
            (pass.startFrame, pass.endFrame) = (metadata.frame(at: phrase.start), metadata.frame(at: phrase.end))
            pass.gapFrames = Int((phraseMode.gap(after: phrase, rate: rate) * Double(metadata.sampleRate)).rounded())
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
