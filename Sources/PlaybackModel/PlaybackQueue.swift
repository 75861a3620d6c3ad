/// The ordered list of items and which one is current. Pure value; the player service owns
/// the only instance.
public struct PlaybackQueue: Sendable, Equatable {
    /// Longest queue accepted; `enqueue` beyond it is refused.
    public static let maximumCount = 100_000

    public private(set) var items: [QueueItem] = []
    /// Index of the current item, or nil when there is none (empty queue, or played out).
    public private(set) var currentIndex: Int?

    public init() {}

    public var current: QueueItem? { currentIndex.map { items[$0] } }
    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }

    /// Items after the current one, in play order.
    public var upcoming: ArraySlice<QueueItem> {
        guard let index = currentIndex else { return [] }
        return items[(index + 1)...]
    }

    /// Room left before `maximumCount`.
    public var remainingCapacity: Int { Self.maximumCount - items.count }

    /// Appends items; the first appended becomes current when there was no current item.
    public mutating func append(_ newItems: [QueueItem]) {
        let firstNew = items.count
        items.append(contentsOf: newItems.prefix(remainingCapacity))
        if currentIndex == nil && firstNew < items.count { currentIndex = firstNew }
    }

    public mutating func removeAll() {
        items.removeAll()
        currentIndex = nil
    }

    /// Makes `index` current. Returns false (and changes nothing) when it is out of range.
    @discardableResult
    public mutating func select(_ index: Int) -> Bool {
        guard items.indices.contains(index) else { return false }
        currentIndex = index
        return true
    }

    /// Moves to the next item; at the end there is no current item and it returns false.
    @discardableResult
    public mutating func advance() -> Bool {
        guard let index = currentIndex else { return false }
        if index + 1 < items.count {
            currentIndex = index + 1
            return true
        }
        currentIndex = nil
        return false
    }

    /// Index of the item with this id.
    public func index(ofItem id: UInt64) -> Int? {
        items.firstIndex { $0.id == id }
    }
}
