import PlaybackModel

/// Phrase mode as a value: the mode, the phrases an analysis found for an item and the
/// parameters they were found with, per-item parameters, and the step heard (which phrase,
/// which repetition, in its gap or not). Its rules take the current item as an argument: the
/// state (`PlayerState+Phrases`) says which that is.
struct PhraseState: Equatable {
    private(set) var mode = PhraseMode()
    /// The phrases found in an item (the current one, or the one before it changed).
    private(set) var stored: StoredPhrases?
    /// Analysis parameters set for one item over the socket (`analyzePhrases`), by item id.
    private(set) var itemParameters: [UInt64: PhraseParameters] = [:]
    /// The configuration's analysis parameters.
    private(set) var defaults: PhraseParameters
    /// The step heard, and the item it is in.
    private var storedStep: (itemID: UInt64, step: PhraseStep)?
    /// The item a command asked the phrases of (they are found even with phrase mode off).
    private(set) var askedFor: UInt64?

    init(defaults: PhraseParameters) { self.defaults = defaults }

    static func == (a: PhraseState, b: PhraseState) -> Bool {
        a.mode == b.mode && a.stored == b.stored && a.itemParameters == b.itemParameters && a.defaults == b.defaults
            && a.storedStep?.itemID == b.storedStep?.itemID && a.storedStep?.step == b.storedStep?.step
            && a.askedFor == b.askedFor
    }

    /// A command asked for `item`'s phrases.
    mutating func ask(for item: QueueItem?) { askedFor = item?.id }

    func isAsked(for item: QueueItem) -> Bool { askedFor == item.id }

    /// The step in `item`; nil outside phrase mode's steps (and in another item).
    func step(in item: QueueItem?) -> PhraseStep? {
        storedStep.flatMap { $0.itemID == item?.id ? $0.step : nil }
    }

    mutating func setStep(_ step: PhraseStep?, in item: QueueItem?) {
        storedStep = item.flatMap { item in step.map { (item.id, $0) } }
    }

    /// The parameters `item` is analysed with.
    func parameters(for item: QueueItem) -> PhraseParameters { itemParameters[item.id] ?? defaults }

    /// `item`'s phrases as far as they are known, with its parameters.
    func phrases(of item: QueueItem?) -> PhraseList? {
        guard let item, let stored, stored.itemID == item.id, stored.parameters == parameters(for: item) else {
            return nil
        }
        return stored.list
    }

    /// Why `item` has no phrases, when its analysis failed.
    func failure(of item: QueueItem?) -> String? {
        guard let item, let stored, stored.itemID == item.id else { return nil }
        return stored.failure
    }

    /// Whether `item` plays phrase by phrase: the mode is on, and its phrases are known.
    func isPlaying(_ item: QueueItem?) -> Bool { mode.isEnabled && !(phrases(of: item)?.phrases.isEmpty ?? true) }

    mutating func setMode(_ new: PhraseMode, in item: QueueItem?) -> ChangeSet {
        guard new != mode else { return [] }
        mode = new
        if !new.isEnabled { setStep(nil, in: item) }
        return .phrase
    }

    /// An analysis reported; a change only when it is `current`'s.
    mutating func setPhrases(_ new: StoredPhrases, current: QueueItem?) -> ChangeSet {
        guard new != stored else { return [] }
        stored = new
        return new.itemID == current?.id ? .phrase : []
    }

    /// Analysis parameters for `item` alone (those of items no longer queued are dropped);
    /// its phrases are found again.
    mutating func setParameters(_ parameters: PhraseParameters, for item: QueueItem, queued: Set<UInt64>) -> ChangeSet {
        itemParameters = itemParameters.filter { queued.contains($0.key) }
        itemParameters[item.id] = parameters
        setStep(nil, in: item)
        return .phrase
    }

    /// A reload's defaults.
    mutating func setDefaults(_ parameters: PhraseParameters) { defaults = parameters }
}

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
