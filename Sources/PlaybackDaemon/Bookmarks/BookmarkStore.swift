import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The bookmarks of long items: where listening stopped in each audiobook or podcast, kept
/// across queues and restarts in `bookmarks.json` beside the resume state, written atomically
/// off the event loop (as the resume state is), at most `maximumCount` (the oldest dropped).
///
/// A bookmark follows the file, not its place in a queue. It is found by the file's path, and
/// a file's length in the audio must match (so a different recording saved at the path does
/// not inherit it, while a retagged file keeps it); failing the path, by the file's size and
/// modification time with the same length (so a book moved or renamed with `mv`, which keeps
/// both, keeps it too). A hash of the contents would follow a copy as well, but it costs a read
/// of the file at every item start. Event loop only.
final class BookmarkStore {
    /// One bookmark, with the identity of the file it was saved for.
    struct Entry: Equatable {
        var bookmark: Bookmark
        var size: Int64
        /// Modification time, milliseconds since the epoch (exact in the file's JSON numbers).
        var modified: Int64
    }

    static let maximumCount = 1000
    /// An item played to within this many seconds of its end counts as finished: it starts
    /// from its beginning next time.
    static let finishedMargin = 30.0
    /// The largest difference in length that still counts as the same recording, seconds.
    static let lengthTolerance = 0.5
    static let fileName = "bookmarks.json"

    /// Items at least this long keep a bookmark (0: none).
    var minimumDuration: Double
    let path: String?
    private let log: DaemonLog
    private let loop: EventLoop
    private(set) var entries: [Entry] = []
    private var worker: BackgroundWorker?
    private let pending = Locked<[UInt8]?>(nil)
    private var lastFailure: String?

    init(path: String?, minimumDuration: Double, loop: EventLoop, log: DaemonLog) {
        self.path = path
        self.minimumDuration = minimumDuration
        self.loop = loop
        self.log = log
        load()
    }

    /// `bookmarks.json` in the resume state's directory.
    static func defaultPath(environment: Environment) -> String? {
        StateFile.defaultPath(environment: environment).map { path in
            String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/" + fileName
        }
    }

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
    /// played to within `finishedMargin` of its end or not started.
    func record(_ item: QueueItem, at position: Double, now: Double = WallClock.now()) {
        guard keepsBookmark(item) else { return }
        let existing = index(for: item)
        // Whatever was kept for this file, or under its path for another recording, goes.
        var kept = entries
        if let existing { kept.remove(at: existing) }
        kept.removeAll { $0.bookmark.path == item.path }
        if position <= 0 || position >= item.metadata.duration - Self.finishedMargin {
            guard kept.count != entries.count else { return }
            entries = kept
            return save()
        }
        // A URL has no size or time of its own here (and is not looked at to find one): it is
        // found by its URL alone.
        let identity: (size: Int64, modified: Int64)
        if StreamURL.isStream(item.path) {
            identity = (0, 0)
        } else if let found = FileSystem.identity(of: item.path) {
            identity = found
        } else {
            return
        }
        let entry = Entry(
            bookmark: Bookmark(
                path: item.path, title: item.metadata.title, position: position, duration: item.metadata.duration,
                saved: now),
            size: identity.size, modified: identity.modified)
        if let existing, entries[existing] == entry { return }
        entries = [entry] + kept.prefix(Self.maximumCount - 1)
        save()
    }

    /// Forgets the bookmark saved for `path`; false when there is none.
    func forget(path: String) -> Bool {
        let before = entries.count
        entries.removeAll { $0.bookmark.path == path }
        guard entries.count != before else { return false }
        save()
        return true
    }

    /// Forgets every bookmark; returns how many there were.
    func forgetAll() -> Int {
        let count = entries.count
        entries = []
        if count > 0 { save() }
        return count
    }

    /// Every bookmark, newest first.
    var bookmarks: [Bookmark] { entries.map(\.bookmark) }

    /// Writes what is pending, then ends the writer's thread (at exit).
    func stop() {
        flush()
        worker?.stop()
        worker = nil
    }

    /// Writes what is pending before returning (at exit).
    func flush() {
        worker?.drain()
        guard let bytes = pending.withLock({ $0.take() }) else { return }
        write(bytes)
    }

    // MARK: Finding

    private func index(for item: QueueItem) -> Int? {
        let duration = item.metadata.duration
        func sameLength(_ entry: Entry) -> Bool {
            abs(entry.bookmark.duration - duration) <= Self.lengthTolerance
        }
        if let byPath = entries.firstIndex(where: { $0.bookmark.path == item.path }) {
            return sameLength(entries[byPath]) ? byPath : nil
        }
        guard !StreamURL.isStream(item.path), let identity = FileSystem.identity(of: item.path) else { return nil }
        return entries.firstIndex { $0.size == identity.size && $0.modified == identity.modified && sameLength($0) }
    }

    // MARK: The file

    private func load() {
        guard let path else { return }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path, maximumBytes: 16 << 20)
        } catch .missing {
            return
        } catch {
            return log.warning("cannot read the bookmarks in \(path): \(error)")
        }
        do throws(WireDecodingError) {
            let json: JSONValue
            do { json = try JSONParser.parse(bytes) } catch { throw WireDecodingError(error.description) }
            entries = try Self.entries(json)
        } catch {
            let aside = path + ".corrupt"
            rename(path, aside)
            log.warning("the bookmarks in \(path) are unreadable (\(error)); moved them to \(aside)")
        }
    }

    private static func entries(_ json: JSONValue) throws(WireDecodingError) -> [Entry] {
        let reader = WireReader(object: json, context: "bookmarks")
        var entries: [Entry] = []
        for value in try reader.array("bookmarks").prefix(maximumCount) {
            let entry = WireReader(object: value, context: "bookmark")
            let bookmark = try Bookmark(json: value)
            guard bookmark.path.hasPrefix(bytes: "/"), bookmark.position.isFinite, bookmark.position > 0 else {
                throw WireDecodingError("bookmark: '\(bookmark.path)' is not an absolute path with a position")
            }
            entries.append(
                Entry(
                    bookmark: bookmark, size: try entry.wholeNumber("size"), modified: try entry.wholeNumber("modified")
                ))
        }
        return entries
    }

    private var fileBytes: [UInt8] {
        let list = entries.map { entry -> JSONValue in
            guard case .object(let members) = entry.bookmark.json else { return .null }
            return .object(
                members + [("size", .number(Double(entry.size))), ("modified", .number(Double(entry.modified)))])
        }
        var bytes = JSONValue.object([("version", .number(1)), ("bookmarks", .array(list))]).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Hands the list to the worker; saves asked for while one is pending collapse into it.
    private func save() {
        guard path != nil else { return }
        let wasPending = pending.withLock { slot in
            defer { slot = fileBytes }
            return slot != nil
        }
        guard !wasPending else { return }
        if worker == nil { worker = BackgroundWorker(name: "pbd-bookmarks", loop: loop) }
        worker?.submit { [pending, path] in
            guard let bytes = pending.withLock({ $0.take() }), let path else { return {} }
            let failure = FileSystem.replace(path, with: bytes, durable: true)
            return { [weak self] in self?.report(failure) }
        }
    }

    private func write(_ bytes: [UInt8]) {
        guard let path else { return }
        report(FileSystem.replace(path, with: bytes, durable: true))
    }

    /// Each failure is said once.
    private func report(_ failure: String?) {
        guard failure != lastFailure else { return }
        lastFailure = failure
        if let failure { log.error("cannot save the bookmarks: \(failure)") }
    }
}
