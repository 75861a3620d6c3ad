import PlaybackModel

/// The A-B loop as a value: the range set (in whichever item; it counts only while that item
/// is current), and which pass the running pipeline's first segment plays. The range reaches
/// the engine as the current item ending at its end, followed by passes from its start to its
/// end (`PlayerState.engineItems`), so each loop point is an item boundary like a repeat-one
/// loop's: seamless and sample-exact.
struct ABLoopState: Equatable {
    private(set) var stored: LoopRange?
    /// The pass the running pipeline's first segment plays; nil when it plays no pass.
    private(set) var firstPass: Int?

    /// The loop of `itemID`; nil when none is set for it.
    func range(in itemID: UInt64?) -> LoopRange? { stored?.itemID == itemID ? stored : nil }

    mutating func set(_ loop: LoopRange?, current itemID: UInt64?) -> ChangeSet {
        guard loop != range(in: itemID) else { return [] }
        stored = loop
        return .loop
    }

    /// The loop ends with its item (another item became current).
    mutating func drop() -> ChangeSet {
        guard stored != nil else { return [] }
        stored = nil
        return .loop
    }

    /// A pipeline started at `frame` of `item`: when that is before the loop's end, its segment
    /// 0 is the pass playing, and segment `n` the pass `n` later (or, past the last pass, the
    /// rest of the item).
    mutating func pipelineStarted(atFrame frame: Int, in item: QueueItem) {
        guard let loop = range(in: item.id), frame < item.metadata.frame(at: loop.end) else {
            return firstPass = nil
        }
        firstPass = loop.pass
    }

    /// The current item's pipeline began its segment `segment`: the next pass, or the rest of
    /// the item after the last one (the loop ends). Counted by segment, not by the moment it
    /// is heard: on a device that takes audio faster than real time several boundaries pass
    /// between two announcements.
    mutating func segmentBegan(_ segment: Int, in itemID: UInt64?) -> ChangeSet {
        guard var loop = range(in: itemID), let first = firstPass else { return [] }
        let pass = first + segment
        guard loop.count == 0 || pass <= loop.count else {
            firstPass = nil
            return set(nil, current: itemID)
        }
        loop.pass = pass
        return set(loop, current: itemID)
    }
}
