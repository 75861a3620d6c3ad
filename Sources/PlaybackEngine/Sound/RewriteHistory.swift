/// What the output thread needs to hand audio it already wrote to the device again, processed
/// anew: for each block it wrote, where the block began in the ring and the sound chain as it
/// was before the block (the filters' memory, a crossfade under way, the dither's state), and
/// how far the pipeline's fade-in had come. Restoring an entry and processing the ring from its
/// position gives, sample for sample, what was written from there, so new settings applied at
/// that point crossfade from exactly the audio that plays up to it.
///
/// A ring of entries, oldest overwritten first, preallocated with the pipeline; the output
/// thread alone uses it (no allocation, no lock).
final class RewriteHistory: @unchecked Sendable {
    /// Frames the output thread writes at a time when the device can replace what it holds:
    /// how close to the frame heard a change of settings can take effect (23 ms at 44.1 kHz).
    static let blockFrames = 1024

    struct Entry {
        /// The ring position (samples read) where the block began.
        var position: Int
        var chain: SoundChain
        var fadedIn: Int
    }

    let capacity: Int
    private let entries: UnsafeMutablePointer<Entry>
    /// Entries held: `first ..< end`, counted since the pipeline began (slot: index % capacity).
    private var first = 0
    private var end = 0

    /// `chain` fills the slots (it is never read from an empty one).
    init(capacity: Int, chain: SoundChain) {
        precondition(capacity > 0)
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(position: 0, chain: chain, fadedIn: 0), count: capacity)
    }

    deinit {
        entries.deinitialize(count: capacity)
        entries.deallocate()
    }

    /// Notes the chain as it is before the block at `position`. A block that starts where the
    /// newest entry starts (a write the device did not take) replaces it.
    func record(position: Int, chain: SoundChain, fadedIn: Int) {
        if end > first && entries[(end - 1) % capacity].position == position { end -= 1 }
        entries[end % capacity] = Entry(position: position, chain: chain, fadedIn: fadedIn)
        end += 1
        first = max(first, end - capacity)
    }

    /// The oldest entry at or after `earliest` and before `limit`, if any.
    func entry(atOrAfter earliest: Int, before limit: Int) -> Entry? {
        for index in first..<end where entries[index % capacity].position >= earliest {
            let entry = entries[index % capacity]
            return entry.position < limit ? entry : nil
        }
        return nil
    }

    /// Forgets the entries at or after `position` (the audio written from there is replaced).
    func forget(from position: Int) {
        while end > first && entries[(end - 1) % capacity].position >= position { end -= 1 }
    }
}
