/// One phrase of an item: the speech between two silences, with a little of each silence
/// (`PhraseParameters.padding`) so no word is clipped. Seconds into the item.
public struct Phrase: Sendable, Equatable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    public var length: Double { end - start }
}

/// The phrases an analysis has found in an item so far.
public struct PhraseList: Sendable, Equatable {
    /// In order, not overlapping.
    public var phrases: [Phrase]
    /// Whether the analysis has finished: until then the list covers only the part analysed
    /// (from where playback stood when it began), and may still change.
    public var isComplete: Bool

    public init(phrases: [Phrase], isComplete: Bool) {
        self.phrases = phrases
        self.isComplete = isComplete
    }

    /// The phrase `seconds` is in, or else the first one after it; nil past the last.
    public func index(atOrAfter seconds: Double) -> Int? {
        phrases.firstIndex { $0.end > seconds }
    }
}

/// Where phrase mode stands in the current item, for the snapshot.
public struct CurrentPhrase: Sendable, Equatable {
    /// Zero-based.
    public var number: Int
    public var count: Int
    public var start: Double
    public var end: Double
    /// Which of the mode's repeats plays, zero-based.
    public var repetition: Int
    /// Whether the silence after the phrase is playing (the position holds at its end).
    public var inGap: Bool

    public init(number: Int, count: Int, start: Double, end: Double, repetition: Int, inGap: Bool) {
        self.number = number
        self.count = count
        self.start = start
        self.end = end
        self.repetition = repetition
        self.inGap = inGap
    }
}
