/// How an item is cut into phrases (`PhraseDetector`): the configuration's `phrase-*`
/// settings, or an item's own over the socket (`analyzePhrases`).
public struct PhraseParameters: Sendable, Equatable, Hashable {
    /// Decibels below the item's speech level under which a window counts as silence.
    public var threshold: Double
    /// The shortest silence that ends a phrase, seconds.
    public var minimumSilence: Double
    /// The shortest phrase, seconds: a shorter fragment joins the neighbour across the
    /// shorter pause.
    public var minimumPhrase: Double
    /// The longest phrase, seconds: a longer one is split at its deepest pause.
    public var maximumPhrase: Double
    /// Silence kept at both ends of each phrase, seconds.
    public var padding: Double

    public init(
        threshold: Double = 30, minimumSilence: Double = 0.3, minimumPhrase: Double = 0.5,
        maximumPhrase: Double = 20, padding: Double = 0.15
    ) {
        self.threshold = threshold
        self.minimumSilence = minimumSilence
        self.minimumPhrase = minimumPhrase
        self.maximumPhrase = maximumPhrase
        self.padding = padding
    }

    public static let thresholdRange = 6.0...60.0
    public static let minimumSilenceRange = 0.05...5.0
    public static let minimumPhraseRange = 0.0...10.0
    public static let maximumPhraseRange = 2.0...600.0
    public static let paddingRange = 0.0...1.0

    /// The length of one level window, seconds (10 ms: fine enough for 50 ms boundaries,
    /// coarse enough that one pitch period does not read as silence).
    public static let windowSeconds = 0.01
}
