import Synchronization

/// Where each item begins in the sample stream of one pipeline.
///
/// Written only by the decoder thread (append), read by the output thread (to notice item
/// boundaries) and the event loop (to map a played sample to an item and position).
/// An entry is fully written before `count` is published with release ordering. The decoder
/// never runs more than `maximumLead` entries ahead of the output thread, so the entries a
/// reader can still need (the one being heard and those queued behind it) are never
/// overwritten.
final class SegmentLog: @unchecked Sendable {
    struct Segment {
        var itemID: UInt64
        /// Ring sample index of the segment's first sample.
        var startSample: Int
        /// Frame within the item where decoding began (non-zero after a seek).
        var firstFrame: Int
        /// The item's gain (`EngineItem.gain`).
        var gain: Double
        /// The item's `EngineItem.mark`.
        var mark = 0
        /// The frame the item ends before (`EngineItem.endFrame`): positions never pass it.
        var endFrame: Int?
        /// The silence after an item's samples (`EngineItem.gapFrames`): its position holds
        /// at `firstFrame`.
        var isGap = false
    }

    static let capacity = 256
    static let maximumLead = 128

    private let entries = UnsafeMutablePointer<Segment>.allocate(capacity: capacity)
    private let published = Atomic<Int>(0)
    /// Index of the segment the output thread is writing (advanced by the output thread).
    let outputSegment = Atomic<Int>(0)

    deinit { entries.deallocate() }

    var count: Int { published.load(ordering: .acquiring) }

    /// Decoder: whether there is room to append without overtaking readers.
    var hasRoom: Bool { count - outputSegment.load(ordering: .acquiring) < Self.maximumLead }

    /// Decoder: appends a segment.
    func append(_ segment: Segment) {
        let index = published.load(ordering: .relaxed)
        (entries + index % Self.capacity).initialize(to: segment)
        published.store(index + 1, ordering: .releasing)
    }

    /// Entry `index` (must be below `count` and not older than `capacity`).
    subscript(index: Int) -> Segment { entries[index % Self.capacity] }

    /// The last segment starting at or before `sample`, and its index.
    func segment(containing sample: Int) -> (index: Int, segment: Segment)? {
        let total = count
        var index = total - 1
        while index >= 0 && index >= total - Self.capacity {
            let entry = self[index]
            if entry.startSample <= sample { return (index, entry) }
            index -= 1
        }
        return nil
    }
}
