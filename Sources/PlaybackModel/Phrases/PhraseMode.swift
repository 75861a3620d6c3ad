/// Phrase mode (`setPhraseMode`): each phrase of the item plays `repeats` times, each time
/// followed by a gap of silence to repeat it aloud in, `gapFactor` times the phrase's length
/// plus `gapExtra` seconds.
public struct PhraseMode: Sendable, Equatable {
    public var isEnabled: Bool
    /// Times each phrase plays, 1 - 10.
    public var repeats: Int
    /// The gap after a phrase, in phrase lengths, 0 - 3.
    public var gapFactor: Double
    /// Seconds added to each gap, 0 - 30.
    public var gapExtra: Double

    public init(isEnabled: Bool = false, repeats: Int = 1, gapFactor: Double = 1, gapExtra: Double = 0) {
        self.isEnabled = isEnabled
        self.repeats = repeats
        self.gapFactor = gapFactor
        self.gapExtra = gapExtra
    }

    public static let repeatsRange = 1...10
    public static let gapFactorRange = 0.0...3.0
    public static let gapExtraRange = 0.0...30.0

    /// The silence after `phrase`, in seconds of the item, played at `rate`: the extra seconds
    /// are of listening time, so the stretcher's scaling is undone for them.
    public func gap(after phrase: Phrase, rate: Double) -> Double { phrase.length * gapFactor + gapExtra * rate }
}
