import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where the bookmarks of long items (`BookmarkBook`) are kept across restarts:
/// `bookmarks.json` beside the resume state, read at start and written atomically off the event
/// loop (as the resume state is) whenever the book differs from the one last kept. Event loop
/// only.
final class BookmarkStore {
    static let fileName = "bookmarks.json"

    let path: String?
    private let log: DaemonLog
    private let loop: EventLoop
    private var worker: BackgroundWorker?
    private let pending = Locked<[UInt8]?>(nil)
    private var lastFailure: String?
    /// The book read or handed to be written last (`keep` compares with it).
    private var kept: BookmarkBook?

    init(path: String?, loop: EventLoop, log: DaemonLog) {
        self.path = path
        self.loop = loop
        self.log = log
    }

    /// `bookmarks.json` in the resume state's directory.
    static func defaultPath(environment: Environment) -> String? {
        StateFile.defaultPath(environment: environment).map { path in
            String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/" + fileName
        }
    }

    /// The book kept in the file (empty when there is none); an unreadable file is moved aside
    /// with a warning.
    func load(minimumDuration: Double) -> BookmarkBook {
        let book = read(minimumDuration: minimumDuration)
        kept = book
        return book
    }

    private func read(minimumDuration: Double) -> BookmarkBook {
        guard let path else { return BookmarkBook(minimumDuration: minimumDuration) }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path, maximumBytes: 16 << 20)
        } catch .missing {
            return BookmarkBook(minimumDuration: minimumDuration)
        } catch {
            log.warning("cannot read the bookmarks in \(path): \(error)")
            return BookmarkBook(minimumDuration: minimumDuration)
        }
        do throws(WireDecodingError) {
            let json: JSONValue
            do { json = try JSONParser.parse(bytes) } catch { throw WireDecodingError(error.description) }
            return BookmarkBook(minimumDuration: minimumDuration, entries: try Self.entries(json))
        } catch {
            let aside = path + ".corrupt"
            rename(path, aside)
            log.warning("the bookmarks in \(path) are unreadable (\(error)); moved them to \(aside)")
            return BookmarkBook(minimumDuration: minimumDuration)
        }
    }

    /// Writes `book` soon when it differs from the book read or written last (an unchanged
    /// book's entries are the same array, which compares in constant time).
    func keep(_ book: BookmarkBook) {
        guard book != kept else { return }
        kept = book
        save(book)
    }

    /// Writes `book` soon, on the writer's thread; saves asked for while one is pending
    /// collapse into it.
    func save(_ book: BookmarkBook) {
        guard path != nil else { return }
        let bytes = Self.fileBytes(book)
        let wasPending = pending.withLock { slot in
            defer { slot = bytes }
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

    /// Writes what is pending before returning (at exit).
    func flush() {
        worker?.drain()
        guard let bytes = pending.withLock({ $0.take() }), let path else { return }
        report(FileSystem.replace(path, with: bytes, durable: true))
    }

    /// Writes what is pending, then ends the writer's thread (at exit).
    func stop() {
        flush()
        worker?.stop()
        worker = nil
    }

    private static func entries(_ json: JSONValue) throws(WireDecodingError) -> [BookmarkBook.Entry] {
        let reader = WireReader(object: json, context: "bookmarks")
        var entries: [BookmarkBook.Entry] = []
        for value in try reader.array("bookmarks").prefix(BookmarkBook.maximumCount) {
            let entry = WireReader(object: value, context: "bookmark")
            let bookmark = try Bookmark(json: value)
            guard bookmark.path.hasPrefix(bytes: "/") || StreamURL.isStream(bookmark.path), bookmark.position.isFinite,
                bookmark.position > 0
            else {
                throw WireDecodingError("bookmark: '\(bookmark.path)' is not an absolute path with a position")
            }
            entries.append(
                BookmarkBook.Entry(
                    bookmark: bookmark,
                    file: FileIdentity(size: try entry.wholeNumber("size"), modified: try entry.wholeNumber("modified"))
                ))
        }
        return entries
    }

    private static func fileBytes(_ book: BookmarkBook) -> [UInt8] {
        let list = book.entries.map { entry -> JSONValue in
            guard case .object(let members) = entry.bookmark.json else { return .null }
            return .object(
                members + [
                    ("size", .number(Double(entry.file.size))), ("modified", .number(Double(entry.file.modified))),
                ])
        }
        var bytes = JSONValue.object([("version", .number(1)), ("bookmarks", .array(list))]).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Each failure is said once.
    private func report(_ failure: String?) {
        guard failure != lastFailure else { return }
        lastFailure = failure
        if let failure { log.error("cannot save the bookmarks: \(failure)") }
    }
}
