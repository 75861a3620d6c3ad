/// Priorities (MPD's `prio`): in a shuffled order, the items still to come play in descending
/// priority, each priority's items in a random order; an item's priority is spent when it
/// starts. In the queue's own order they change nothing.
extension PlaybackQueue {
    /// Sets the priority of the items at `offsets` (each in range), in the order given. While
    /// shuffled, an item still to come moves to the front of its priority among the items to
    /// come (after those set by the same call); one played already in this cycle comes again
    /// only when its priority was raised above the current item's; the current item stays.
    /// Returns whether any item's priority changed.
    @discardableResult
    public mutating func setPriority(_ priority: UInt8, at offsets: [Int]) -> Bool {
        var changed = Set<Int>()
        for index in offsets where items[index].priority != priority {
            let old = items[index].priority
            setItemPriority(priority, at: index)
            changed.insert(index)
            guard shuffleMode == .items, let order = shuffledOrder.firstIndex(of: index), order != cyclePosition
            else { continue }
            if order < cyclePosition {
                let currentPriority = items[shuffledOrder[cyclePosition]].priority
                guard priority > old, priority > currentPriority else { continue }
            }
            shuffledOrder.remove(at: order)
            if order < cyclePosition { cyclePosition -= 1 }
            var place = cyclePosition + 1
            while place < shuffledOrder.count,
                items[shuffledOrder[place]].priority > priority || changed.contains(shuffledOrder[place])
            {
                place += 1
            }
            shuffledOrder.insert(index, at: place)
        }
        if !changed.isEmpty { forgetNextCycle() }
        return !changed.isEmpty
    }

    /// The current item started playing: its priority is spent, 0 again (as MPD resets a
    /// song's priority when playback starts). Returns whether it had one.
    public mutating func spendCurrentPriority() -> Bool {
        guard let currentIndex, items[currentIndex].priority > 0 else { return false }
        setItemPriority(0, at: currentIndex)
        return true
    }

    /// `indices` in a random order, grouped by descending priority.
    mutating func shuffledByPriority(_ indices: [Int]) -> [Int] {
        var order = indices
        order.shuffle(using: &random)
        guard order.contains(where: { items[$0].priority > 0 }) else { return order }
        return order.enumerated().sorted { first, second in
            let (a, b) = (items[first.element].priority, items[second.element].priority)
            return a != b ? a > b : first.offset < second.offset
        }.map(\.element)
    }

    /// Where items of priority 0 join the rest of this cycle: after every item to come of a
    /// higher priority, and never before the one right after the current item.
    var firstPlaceForUnprioritized: Int {
        var place = min(shuffledOrder.count, cyclePosition + 2)
        while place < shuffledOrder.count && items[shuffledOrder[place]].priority > 0 { place += 1 }
        return place
    }
}
