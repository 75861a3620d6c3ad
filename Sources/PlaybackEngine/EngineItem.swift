/// What the engine needs to know of a queue item: its id (to report which item plays), its
/// path, and the gain its samples get (ReplayGain).
public struct EngineItem: Sendable, Equatable {
    public var id: UInt64
    public var path: String
    /// Linear factor applied to the item's samples, from its first sample to its last; 1 leaves
    /// them as decoded.
    public var gain: Double
    /// The frame an upcoming item starts at (its bookmark, an A-B loop's start); 0 from its
    /// start. The current item starts where `PlaybackEngine.start` is told.
    public var startFrame: Int
    /// The frame before which it ends (an A-B loop's end); nil at the item's own end.
    public var endFrame: Int?

    public init(id: UInt64, path: String, gain: Double = 1, startFrame: Int = 0, endFrame: Int? = nil) {
        self.id = id
        self.path = path
        self.gain = gain
        self.startFrame = startFrame
        self.endFrame = endFrame
    }
}
