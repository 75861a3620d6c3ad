import PlaybackModel

/// Where playback is: which item, which frame of it.
public struct EnginePosition: Sendable, Equatable {
    public var itemID: UInt64
    public var frame: Int
    public var sampleRate: Int
    /// Which pass through the pipeline's items this is: 0 for the item it started with, then
    /// one more per item boundary (an item repeated back to back has a new segment each time).
    public var segment: Int
    /// The playing item's `EngineItem.mark`.
    public var mark: Int
    /// Whether the silence after the item's samples plays (`EngineItem.gapFrames`): `frame`
    /// holds where they ended.
    public var isGap: Bool

    public init(itemID: UInt64, frame: Int, sampleRate: Int, segment: Int = 0, mark: Int = 0, isGap: Bool = false) {
        self.itemID = itemID
        self.frame = frame
        self.sampleRate = sampleRate
        self.segment = segment
        self.mark = mark
        self.isGap = isGap
    }

    public var seconds: Double { FrameTime.seconds(frame, rate: sampleRate) }
}

/// What the engine reports to the event loop after `events` fired.
public enum EngineEvent: Sendable, Equatable {
    /// The device started playing: positions now advance (and are extrapolated).
    case audible
    /// The output thread began writing `itemID` as the pipeline's `segment`; it becomes
    /// audible after `audibleIn` seconds.
    case itemStarted(itemID: UInt64, segment: Int, audibleIn: Double)
    /// Everything was played out; `last` is where it ended. `next` is the item that needs a
    /// new pipeline because its format differs, or nil at the end of the queue.
    case finished(last: EnginePosition?, next: UInt64?)
    /// The pipeline's output thread opened the device: what it is can be asked now
    /// (`PlaybackEngine.isServerStream`, `hardwareDevice`).
    case deviceOpened
    /// The device failed; playback stopped at `position`. `opening`: it could not be opened
    /// (nothing was played).
    case deviceFailed(SinkError, position: EnginePosition?, opening: Bool)
    /// The decoder passed over `count` upcoming items it could not open (deleted, broken).
    case itemsSkipped(count: Int)
    /// Decoding failed part-way through `count` items; each played as far as it decoded.
    /// `reason`: why the last of them failed.
    case itemsCutShort(count: Int, reason: DecoderError?)
    /// The device underran `count` more times (xruns) and the output thread recovered.
    case xrunsRecovered(count: Int)
    /// The live stream at `url` announced what it plays now.
    case streamTitle(url: String, StreamTitle)
}
