/// An A-B loop in the current item (`setLoopRange`): the range plays `count` passes in all,
/// the one that reached its end included (0: endlessly), seamlessly and sample-exactly, then
/// playback goes on past `end`.
public struct LoopRange: Sendable, Equatable {
    /// The item it loops.
    public var itemID: UInt64
    /// Seconds into the item.
    public var start: Double
    public var end: Double
    /// Passes in all; 0 for endless.
    public var count: Int
    /// The pass playing, from 1.
    public var pass: Int

    public init(itemID: UInt64, start: Double, end: Double, count: Int, pass: Int = 1) {
        self.itemID = itemID
        self.start = start
        self.end = end
        self.count = count
        self.pass = pass
    }

    /// The shortest range: each pass opens the item again.
    public static let minimumSeconds = 0.1
    /// The most passes `count` asks for.
    public static let maximumCount = 1000
}
