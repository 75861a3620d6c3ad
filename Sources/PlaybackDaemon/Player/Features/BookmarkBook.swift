import PlaybackModel

/// The bookmarks of long items as a value: where listening stopped in each audiobook or
/// podcast (`Bookmark`), with the identity of the file it was saved for, newest first, at most
/// `maximumCount`. Its rules are plain functions: which items keep one, where an item starts,
/// what a stop records. `BookmarkStore` reads it at start and writes it when it changes.
///
/// A bookmark follows the file, not its place in a queue. It is found by the file's path, and
/// a file's length in the audio must match (so a different recording saved at the path does
/// not inherit it, while a retagged file keeps it); failing the path, by the file's size and
/// modification time (`QueueItem.file`) with the same length (so a book moved or renamed with
/// `mv`, which keeps both, keeps it too).
struct BookmarkBook: Equatable {
    /// One bookmark, with the identity of the file it was saved for (size 0 for a URL).
    struct Entry: Equatable {
        var bookmark: Bookmark
        var file: FileIdentity
    }

    static let maximumCount = 1000
    /// An item played to within this many seconds of its end counts as finished: it starts
    /// from its beginning next time.
    static let finishedMargin = 30.0
    /// The largest difference in length that still counts as the same recording, seconds.
    static let lengthTolerance = 0.5

    /// Items at least this long keep a bookmark (0: none).
    private(set) var minimumDuration: Double
    private(set) var entries: [Entry]

    init(minimumDuration: Double, entries: [Entry] = []) {
        self.minimumDuration = minimumDuration
        self.entries = Array(entries.prefix(Self.maximumCount))
    }

    /// Every bookmark, newest first.
    var bookmarks: [Bookmark] { entries.map(\.bookmark) }

    /// Whether `item` is long enough to keep a bookmark.
    func keepsBookmark(_ item: QueueItem) -> Bool {
        minimumDuration > 0 && item.metadata.duration >= minimumDuration
    }

    /// Where `item` starts: its bookmark's position, or nil.
    func position(for item: QueueItem) -> Double? {
        guard keepsBookmark(item), let index = index(for: item) else { return nil }
        return entries[index].bookmark.position
    }

    /// Records where listening to `item` stopped: a bookmark at `position`, or none when it was
    /// played to within `finishedMargin` of its end or not started. Whether the book changed.
    mutating func record(_ item: QueueItem, at position: Double, now: Double) -> Bool {
        guard keepsBookmark(item) else { return false }
        let existing = index(for: item)
        // Whatever was kept for this file, or under its path for another recording, goes.
        var kept = entries
        if let existing { kept.remove(at: existing) }
        kept.removeAll { $0.bookmark.path == item.path }
        if position <= 0 || position >= item.metadata.duration - Self.finishedMargin {
            guard kept.count != entries.count else { return false }
            entries = kept
            return true
        }
        // A URL is found by its URL alone; a file not known by its identity, by its path.
        let file = item.file ?? FileIdentity(size: 0, modified: 0)
        let entry = Entry(
            bookmark: Bookmark(
                path: item.path, title: item.metadata.title, position: position, duration: item.metadata.duration,
                saved: now),
            file: file)
        if let existing, entries[existing] == entry { return false }
        entries = [entry] + kept.prefix(Self.maximumCount - 1)
        return true
    }

    /// Forgets the bookmark saved for `path`; false when there is none.
    mutating func forget(path: String) -> Bool {
        let before = entries.count
        entries.removeAll { $0.bookmark.path == path }
        return entries.count != before
    }

    /// Forgets every bookmark; returns how many there were.
    mutating func forgetAll() -> Int {
        defer { entries = [] }
        return entries.count
    }

    /// A new minimum length (a reload).
    mutating func setMinimumDuration(_ seconds: Double) { minimumDuration = seconds }

    private func index(for item: QueueItem) -> Int? {
        let duration = item.metadata.duration
        func sameLength(_ entry: Entry) -> Bool {
            abs(entry.bookmark.duration - duration) <= Self.lengthTolerance
        }
        if let byPath = entries.firstIndex(where: { $0.bookmark.path == item.path }) {
            return sameLength(entries[byPath]) ? byPath : nil
        }
        guard let file = item.file, file.size > 0 else { return nil }
        return entries.firstIndex { $0.file == file && sameLength($0) }
    }
}
