/// What the engine needs to know of a queue item: its id (to report which item plays), its
/// path, what the queue knows of its format, and the gain its samples get (ReplayGain).
public struct EngineItem: Sendable, Equatable {
    public var id: UInt64
    public var path: String
    /// The format and length the queue knows: a stream with them is connected by the decoder
    /// thread (`AudioFileFormat.open`); nil: found by opening.
    public var known: KnownFormat?
    /// Linear factor applied to the item's samples, from its first sample to its last; 1 leaves
    /// them as decoded.
    public var gain: Double
    /// The frame an upcoming item starts at (its bookmark, an A-B loop's start); 0 from its
    /// start. The current item starts where `PlaybackEngine.start` is told.
    public var startFrame: Int
    /// The frame before which it ends (an A-B loop's end); nil at the item's own end.
    public var endFrame: Int?
    /// Frames of digital silence after its last frame (a phrase's gap), during which the
    /// position holds at the frame it ended before; 0 for none.
    public var gapFrames: Int
    /// A number the engine hands back with each position in this item's samples
    /// (`EnginePosition.mark`), to tell which pass of a phrase plays; 0 for none.
    public var mark: Int
    /// Frames over which this item fades in while the one before it fades out
    /// (`CrossfadeCurve`); 0: it follows gapless. Ignored beyond stereo, after an item of
    /// unknown length (a stream), or after one with a gap.
    public var fadeInFrames: Int
    /// Whether the fade begins where the item before it falls silent and this one's leading
    /// silence is passed over (`SilenceBounds`); false: from the last frame of the item before
    /// (a skip's fade, from the position heard) and this item's first.
    public var fadeSkipsSilence: Bool

    public init(
        id: UInt64, path: String, known: KnownFormat? = nil, gain: Double = 1, startFrame: Int = 0,
        endFrame: Int? = nil, gapFrames: Int = 0, mark: Int = 0, fadeInFrames: Int = 0, fadeSkipsSilence: Bool = true
    ) {
        self.fadeInFrames = fadeInFrames
        self.fadeSkipsSilence = fadeSkipsSilence
        self.id = id
        self.path = path
        self.known = known
        self.gain = gain
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.gapFrames = gapFrames
        self.mark = mark
    }
}
