/// The ordered list of items, which one is current, and the order they play in (repeat and
/// shuffle). Pure value; the player service owns the only instance.
///
/// `items` keep the order the user gave them; shuffle never reorders them, it keeps a
/// separate play order (`shuffledOrder`, item indices) for the current cycle, so turning it
/// off restores the original order by construction.
public struct PlaybackQueue: Sendable, Equatable {
    /// Longest queue accepted; items beyond it are refused.
    public static let maximumCount = 100_000

    public private(set) var items: [QueueItem] = []
    /// Changes whenever `items` does (not when only the current item or the modes change), so
    /// a writer can reuse what it derived from the same items.
    public private(set) var itemsRevision: UInt64 = 0
    /// How many times the queue was emptied whole (`removeAll`: a clear, or a replace before
    /// the new items go in), so that what left the queue can be told apart.
    public private(set) var replacements: UInt64 = 0
    /// Index of the current item, or nil when there is none (empty queue, or played out).
    public private(set) var currentIndex: Int?
    public var repeatMode: RepeatMode = .off
    public private(set) var shuffleMode: ShuffleMode = .off
    /// Whether playback stops where an item ends (`itemEnd`).
    public var singleMode: SingleMode = .off
    /// Whether an item leaves the queue once played (the player removes it).
    public var consumeMode: ConsumeMode = .off
    /// While shuffled: this cycle's play order, as indices into `items` (its rest kept in
    /// descending priority by PlaybackQueue+Priority).
    public internal(set) var shuffledOrder: [Int] = []
    /// Position of the current item in `shuffledOrder`; -1 before the cycle's first item.
    var cyclePosition = -1
    /// Under repeat-all with shuffle: the next cycle's order, decided as soon as something
    /// looks past the end of this one (so what the engine pre-decodes stays true).
    private var nextCycle: [Int]?
    var random: SplitMix64

    public init(random: SplitMix64 = SplitMix64()) { self.random = random }

    public var current: QueueItem? { currentIndex.map { items[$0] } }
    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }
    /// Room left before `maximumCount`.
    public var remainingCapacity: Int { Self.maximumCount - items.count }
    private var isShuffled: Bool { shuffleMode == .items }

    /// Index of the item with this id.
    public func index(ofItem id: UInt64) -> Int? {
        items.firstIndex { $0.id == id }
    }

    // MARK: Play order

    /// What happens where the current item ends: repeat-one plays it again, and so does
    /// `single` with repeat on (MPD's rule); `single` without repeat, or `once`, stops there.
    public var itemEnd: ItemEnd {
        if repeatMode == .one { return .again }
        switch singleMode {
        case .off: return .next
        case .on: return repeatMode == .all ? .again : .stop
        case .once: return .stop
        }
    }

    /// Moves to the item that plays next. `automatic` is the end of an item (repeat-one stays
    /// on it); otherwise it is `nextTrack`. At the end there is no current item and it
    /// returns false.
    @discardableResult
    public mutating func advance(automatic: Bool = false) -> Bool {
        guard let index = currentIndex else { return false }
        if automatic && itemEnd == .again { return true }
        if isShuffled {
            if cyclePosition + 1 < shuffledOrder.count {
                cyclePosition += 1
                currentIndex = shuffledOrder[cyclePosition]
                return true
            }
            guard repeatMode == .all else {
                endCycle()
                return false
            }
            shuffledOrder = nextCycle ?? freshCycle(after: index)
            nextCycle = nil
            cyclePosition = 0
            currentIndex = shuffledOrder[0]
            return true
        }
        if index + 1 < items.count {
            currentIndex = index + 1
        } else if repeatMode == .all {
            currentIndex = 0
        } else {
            currentIndex = nil
            return false
        }
        return true
    }

    /// Moves to the item that played before (`previousTrack`); false at the start of the
    /// order (of the cycle, when shuffled).
    @discardableResult
    public mutating func retreat() -> Bool {
        guard let index = currentIndex else { return false }
        if isShuffled {
            guard cyclePosition > 0 else { return false }
            cyclePosition -= 1
            currentIndex = shuffledOrder[cyclePosition]
        } else if index > 0 {
            currentIndex = index - 1
        } else if repeatMode == .all && items.count > 1 {
            currentIndex = items.count - 1
        } else {
            return false
        }
        return true
    }

    /// With no current item, makes the first of the play order current. False when empty.
    @discardableResult
    public mutating func begin() -> Bool {
        guard !items.isEmpty else { return false }
        guard currentIndex == nil else { return true }
        if isShuffled {
            cyclePosition = 0
            currentIndex = shuffledOrder[0]
        } else {
            currentIndex = 0
        }
        return true
    }

    /// Makes `index` current (a jump). When shuffled, the item moves to just after the
    /// current one in this cycle's order, so the rest of the cycle is unchanged. Returns false
    /// (and changes nothing) when out of range.
    @discardableResult
    public mutating func select(_ index: Int) -> Bool {
        guard items.indices.contains(index) else { return false }
        guard index != currentIndex else { return true }
        if isShuffled, let position = shuffledOrder.firstIndex(of: index) {
            shuffledOrder.remove(at: position)
            if position <= cyclePosition { cyclePosition -= 1 }
            cyclePosition += 1
            shuffledOrder.insert(index, at: cyclePosition)
        }
        currentIndex = index
        return true
    }

    /// Makes the item with `id` current the way playback reaches it: by following the play
    /// order when it is among the next few items (this keeps a shuffle cycle intact across its
    /// end), else by a jump.
    @discardableResult
    public mutating func follow(toItem id: UInt64) -> Bool {
        var walker = self
        for _ in 0..<Self.followLimit {
            guard walker.advance(automatic: true), walker.current != nil else { break }
            if walker.current?.id == id {
                self = walker
                return true
            }
            if walker.itemEnd == .again { break }
        }
        guard let index = index(ofItem: id) else { return false }
        return select(index)
    }

    private static let followLimit = 256

    /// The items that play after the current one when each simply ends, in order: at most
    /// `limit`, and never past the start of a second new shuffle cycle (later cycles are not
    /// decided yet). Decides the next cycle when the list reaches it.
    /// Nothing plays after an item where playback stops (`single`).
    public mutating func upcoming(limit: Int) -> [QueueItem] {
        guard currentIndex != nil, limit > 0, itemEnd != .stop else { return [] }
        if isShuffled && repeatMode == .all && nextCycle == nil && !items.isEmpty {
            nextCycle = freshCycle(after: shuffledOrder.last)
        }
        var walker = self
        var result: [QueueItem] = []
        var cycles = 0
        while result.count < limit {
            let before = walker.cyclePosition
            guard walker.advance(automatic: true), let item = walker.current else { break }
            if isShuffled && walker.cyclePosition < before {
                cycles += 1
                if cycles > 1 { break }
            }
            result.append(item)
        }
        return result
    }

    public mutating func setShuffle(_ mode: ShuffleMode) {
        guard mode != shuffleMode else { return }
        shuffleMode = mode
        nextCycle = nil
        guard mode == .items else {
            shuffledOrder = []
            cyclePosition = -1
            return
        }
        let others = shuffledByPriority(items.indices.filter { $0 != currentIndex })
        if let currentIndex {
            shuffledOrder = [currentIndex] + others
            cyclePosition = 0
        } else {
            shuffledOrder = others
            cyclePosition = -1
        }
    }

    /// A new random order of every item, higher priorities first; its first item differs from
    /// `last` when it can (among the first priority's items).
    private mutating func freshCycle(after last: Int?) -> [Int] {
        var order = shuffledByPriority(Array(items.indices))
        let firstGroup = order.prefix { items[$0].priority == items[order[0]].priority }.count
        if let last, firstGroup > 1, order[0] == last {
            order.swapAt(0, Int.random(in: 1..<firstGroup, using: &random))
        }
        return order
    }

    /// The end of the queue was reached (or playback stopped there): no current item; when
    /// shuffled, a new cycle waits for `begin`.
    public mutating func playOut() {
        if isShuffled { endCycle() } else { currentIndex = nil }
    }

    /// Played out while shuffled: no current item, and a new cycle waits for `begin`.
    private mutating func endCycle() {
        currentIndex = nil
        shuffledOrder = freshCycle(after: shuffledOrder.last)
        cyclePosition = -1
        nextCycle = nil
    }

    // MARK: Editing

    /// Appends items; the first appended becomes current when there was no current item.
    /// Returns how many were accepted (the rest would pass `maximumCount`).
    @discardableResult
    public mutating func append(_ newItems: [QueueItem]) -> Int {
        insert(newItems, at: items.count)
    }

    /// Inserts items before `index` (clamped to the queue). When shuffled they join the rest
    /// of this cycle at random places, or right after the current item when `playNext`.
    /// The first inserted becomes current when there was no current item. Returns how many
    /// were accepted.
    @discardableResult
    public mutating func insert(_ newItems: [QueueItem], at index: Int, playNext: Bool = false) -> Int {
        let index = min(max(0, index), items.count)
        let accepted = newItems.prefix(remainingCapacity)
        let added = accepted.count
        guard added > 0 else { return 0 }
        items.insert(contentsOf: accepted, at: index)
        itemsRevision &+= 1
        if let current = currentIndex, current >= index { currentIndex = current + added }
        if isShuffled {
            nextCycle = nil
            shuffledOrder = shuffledOrder.map { $0 >= index ? $0 + added : $0 }
            let new = Array(index..<(index + added))
            if playNext {
                shuffledOrder.insert(contentsOf: new, at: cyclePosition + 1)
            } else {
                mergeIntoRestOfCycle(new)
            }
        }
        if currentIndex == nil { select(index) }
        return added
    }

    /// Interleaves `new` (in random order) with the items still to come in this cycle, each
    /// interleaving equally likely; the item right after the current one stays next, and items
    /// of a higher priority stay before them.
    private mutating func mergeIntoRestOfCycle(_ new: [Int]) {
        var incoming = new
        incoming.shuffle(using: &random)
        let keep = firstPlaceForUnprioritized
        var rest = shuffledOrder[keep...].makeIterator()
        var remainingRest = shuffledOrder.count - keep
        var merged = Array(shuffledOrder[..<keep])
        merged.reserveCapacity(shuffledOrder.count + incoming.count)
        var remainingNew = incoming.count
        var newIterator = incoming.makeIterator()
        while remainingRest + remainingNew > 0 {
            if UInt64.random(in: 0..<UInt64(remainingRest + remainingNew), using: &random) < remainingNew {
                merged.append(newIterator.next()!)
                remainingNew -= 1
            } else {
                merged.append(rest.next()!)
                remainingRest -= 1
            }
        }
        shuffledOrder = merged
    }

    /// Removes the items at `offsets` (each must be in range). When the current item goes, the
    /// one that would have played next becomes current (none at the end). Returns whether the
    /// current item was removed.
    @discardableResult
    public mutating func remove(at offsets: Set<Int>) -> Bool {
        guard !offsets.isEmpty else { return false }
        let removesCurrent = currentIndex.map(offsets.contains) ?? false
        var successor: Int?
        if removesCurrent, let current = currentIndex {
            if isShuffled {
                successor = shuffledOrder[(cyclePosition + 1)...].first { !offsets.contains($0) }
            } else {
                successor = ((current + 1)..<items.count).first { !offsets.contains($0) }
            }
        }
        var newIndex = [Int](repeating: -1, count: items.count)
        var kept: [QueueItem] = []
        kept.reserveCapacity(items.count - offsets.count)
        for (old, item) in items.enumerated() where !offsets.contains(old) {
            newIndex[old] = kept.count
            kept.append(item)
        }
        items = kept
        itemsRevision &+= 1
        let anchor = removesCurrent ? successor : currentIndex
        currentIndex = anchor.map { newIndex[$0] }
        if isShuffled {
            nextCycle = nil
            shuffledOrder = shuffledOrder.compactMap { newIndex[$0] >= 0 ? newIndex[$0] : nil }
            if let currentIndex {
                cyclePosition = shuffledOrder.firstIndex(of: currentIndex)!
            } else {
                endCycle()
            }
        }
        return removesCurrent
    }

    /// Moves the item at `from` so that it ends up at index `to` (both must be in range).
    public mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        items.insert(items.remove(at: from), at: to)
        itemsRevision &+= 1
        let newIndex: (Int) -> Int = { old in
            if old == from { return to }
            if from < to && old > from && old <= to { return old - 1 }
            if from > to && old >= to && old < from { return old + 1 }
            return old
        }
        currentIndex = currentIndex.map(newIndex)
        shuffledOrder = shuffledOrder.map(newIndex)
        nextCycle = nextCycle?.map(newIndex)
    }

    /// Puts the items of `range` in a new random order, once (MPD's `shuffle`). The current
    /// item, when it is in `range`, goes first, so what plays goes on and what follows it is
    /// new; a shuffled play order keeps pointing at the same items.
    public mutating func reorderAtRandom(_ range: Range<Int>) {
        var order = Array(range)
        if let currentIndex, range.contains(currentIndex) {
            order.swapAt(0, currentIndex - range.lowerBound)
            order[1...].shuffle(using: &random)
        } else {
            order.shuffle(using: &random)
        }
        // newIndex[old] is where the item at `old` goes.
        var newIndex = Array(items.indices)
        for (offset, old) in order.enumerated() { newIndex[old] = range.lowerBound + offset }
        items[range] = ArraySlice(order.map { items[$0] })
        itemsRevision &+= 1
        currentIndex = currentIndex.map { newIndex[$0] }
        shuffledOrder = shuffledOrder.map { newIndex[$0] }
        nextCycle = nextCycle?.map { newIndex[$0] }
    }

    /// Gives the item at `index` its priority (PlaybackQueue+Priority orders the shuffle).
    mutating func setItemPriority(_ priority: UInt8, at index: Int) {
        items[index].priority = priority
        itemsRevision &+= 1
    }

    /// A priority changed: the next cycle is drawn again when needed.
    mutating func forgetNextCycle() { nextCycle = nil }

    /// Sets (or, with nil, clears) the cover of the items with these ids (others are left
    /// alone).
    public mutating func setArtworkPaths(_ paths: [UInt64: String?]) {
        guard !paths.isEmpty else { return }
        for index in items.indices {
            if let path = paths[items[index].id] { items[index].metadata.artworkPath = path }
        }
        itemsRevision &+= 1
    }

    /// Takes the items of `identified` (the items of `original`, in its order, given the
    /// identities of their files) in place of those still as `original` had them; the others
    /// changed meanwhile and are left alone.
    public mutating func setFileIdentities(_ identified: [QueueItem], of original: [QueueItem]) {
        guard identified.count == original.count else { return }
        if items.count == original.count && items.indices.allSatisfy({ items[$0] == original[$0] }) {
            items = identified
            return
        }
        let byID = Dictionary(zip(original.map(\.id), original.indices), uniquingKeysWith: { first, _ in first })
        for index in items.indices {
            if let at = byID[items[index].id], items[index] == original[at] { items[index] = identified[at] }
        }
    }

    /// Applies `change` to the metadata of every item at `path`; returns the ids of the items
    /// it changed.
    public mutating func updateMetadata(at path: String, _ change: (inout TrackMetadata) -> Void) -> Set<UInt64> {
        var changed: Set<UInt64> = []
        for index in items.indices where items[index].path == path {
            var metadata = items[index].metadata
            change(&metadata)
            guard metadata != items[index].metadata else { continue }
            items[index].metadata = metadata
            changed.insert(items[index].id)
        }
        if !changed.isEmpty { itemsRevision &+= 1 }
        return changed
    }

    public mutating func removeAll() {
        replacements &+= 1
        items.removeAll()
        itemsRevision &+= 1
        currentIndex = nil
        shuffledOrder = []
        cyclePosition = -1
        nextCycle = nil
    }

    // MARK: Restoring

    /// A queue as it was saved. A shuffled order that is not a permutation of the items
    /// (or does not hold the current item) is replaced by a fresh one.
    public static func restored(
        items: [QueueItem], currentIndex: Int?, repeatMode: RepeatMode, shuffleMode: ShuffleMode,
        shuffledOrder: [Int]?, random: SplitMix64 = SplitMix64()
    ) -> PlaybackQueue {
        var queue = PlaybackQueue(random: random)
        queue.items = Array(items.prefix(maximumCount))
        queue.currentIndex = currentIndex.flatMap { queue.items.indices.contains($0) ? $0 : nil }
        queue.repeatMode = repeatMode
        queue.setShuffle(shuffleMode)
        if shuffleMode == .items, let order = shuffledOrder, order.count == queue.items.count,
            Set(order) == Set(queue.items.indices)
        {
            queue.shuffledOrder = order
            queue.cyclePosition = queue.currentIndex.flatMap { order.firstIndex(of: $0) } ?? -1
        }
        return queue
    }
}
