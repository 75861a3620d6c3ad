import Foundation
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The bookmark book's rules as a value (no disk), and the store that keeps it in a file.
@Suite struct BookmarkStoreTests {
    let directory = NSTemporaryDirectory() + "playbackd-bookmarks-\(UUID().uuidString)"
    let loop = EventLoop()
    let log = DaemonLog(label: "test", output: LogOutput(threshold: .error, target: .stderr))

    func store() -> BookmarkStore { BookmarkStore(path: directory + "/bookmarks.json", loop: loop, log: log) }

    /// An item of `duration` seconds at `name`, its file known by `size` (and a fixed time).
    func item(_ name: String, duration: Double = 1800, size: Int64 = 100) -> QueueItem {
        QueueItem(
            id: 1, path: directory + "/" + name,
            metadata: TrackMetadata(title: name, duration: duration, sampleRate: 44_100, channels: 2),
            file: FileIdentity(size: size, modified: 1_000_000))
    }

    @Test("a long item's position is kept; short, finished and unstarted items keep none; 0 turns bookmarks off")
    func records() {
        var book = BookmarkBook(minimumDuration: 600)
        let long = item("book.mp3")
        let recorded = book.record(long, at: 95.5, now: 1000)
        #expect(recorded && book.position(for: long) == 95.5)
        let again = book.record(long, at: 95.5, now: 1000)
        #expect(!again, "the same bookmark again changes nothing")
        let finished = book.record(long, at: 1780, now: 1001)
        #expect(finished)
        #expect(book.position(for: long) == nil, "within 30 s of the end: finished")
        _ = book.record(long, at: 10, now: 1002)
        _ = book.record(long, at: 0, now: 1003)
        #expect(book.position(for: long) == nil, "back at the start")
        let song = item("song.mp3", duration: 200)
        let short = book.record(song, at: 50, now: 1004)
        #expect(!short)
        #expect(book.position(for: song) == nil)
        #expect(!BookmarkBook(minimumDuration: 0).keepsBookmark(long), "0 turns bookmarks off")
    }

    @Test(
        "a bookmark follows its file: moved (same size and time), retagged (same path and length), not another recording"
    )
    func followsTheFile() {
        var book = BookmarkBook(minimumDuration: 600)
        let original = item("book.mp3")
        _ = book.record(original, at: 300, now: 0)
        var moved = original
        moved.path = directory + "/moved.mp3"
        #expect(book.position(for: moved) == 300)
        var other = item("book.mp3", duration: 1500, size: 200)
        #expect(book.position(for: other) == nil, "another recording at the path")
        other.metadata.duration = 1800.2
        #expect(book.position(for: other) == 300, "the same length: retagged")
        var unknown = moved
        unknown.file = nil
        #expect(book.position(for: unknown) == nil, "a file not known by its identity is found by its path alone")
    }

    @Test("at most 1000 bookmarks, the oldest dropped; forget one or all")
    func bounded() {
        var book = BookmarkBook(minimumDuration: 600)
        var first: QueueItem?
        for index in 0...BookmarkBook.maximumCount {
            var long = item("b\(index).mp3", size: 100 + Int64(index))
            long.id = UInt64(index)
            first = first ?? long
            _ = book.record(long, at: 100, now: Double(index))
        }
        #expect(book.bookmarks.count == BookmarkBook.maximumCount)
        #expect(book.position(for: first!) == nil, "the oldest went")
        #expect(book.bookmarks.first?.saved == Double(BookmarkBook.maximumCount), "newest first")
        let forgot = book.forget(path: directory + "/b5.mp3")
        let forgotAgain = book.forget(path: directory + "/b5.mp3")
        #expect(forgot && !forgotAgain)
        let all = book.forgetAll()
        #expect(all == BookmarkBook.maximumCount - 1)
    }

    @Test("the store writes the book and reads it back (a URL's bookmark too); an unreadable file is set aside")
    func keptInAFile() throws {
        var book = BookmarkBook(minimumDuration: 600)
        _ = book.record(item("book.mp3"), at: 95.5, now: 1000)
        var stream = item("ignored", duration: 3600)
        stream.path = "https://podcasts.example/episode.mp3"
        stream.file = nil
        _ = book.record(stream, at: 120, now: 1001)
        let written = store()
        written.save(book)
        written.stop()
        #expect(store().load(minimumDuration: 600) == book, "read back from the file")
        try Data("{\"version\":1,\"bookmarks\":[{\"path\":\"relative\"}]}".utf8).write(
            to: URL(fileURLWithPath: directory + "/bookmarks.json"))
        #expect(store().load(minimumDuration: 600).bookmarks.isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory + "/bookmarks.json.corrupt"))
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test("the store writes when the book differs from the one it read or wrote last, and only then")
    func keepsByValue() throws {
        var book = BookmarkBook(minimumDuration: 600)
        _ = book.record(item("book.mp3"), at: 300, now: 0)
        let path = directory + "/bookmarks.json"
        let first = store()
        _ = first.load(minimumDuration: 600)
        first.keep(BookmarkBook(minimumDuration: 600))
        first.flush()
        #expect(!FileManager.default.fileExists(atPath: path), "the empty book read is not written again")
        first.keep(book)
        first.stop()
        let second = store()
        #expect(second.load(minimumDuration: 600) == book)
        try FileManager.default.removeItem(atPath: path)
        second.keep(book)
        second.flush()
        #expect(!FileManager.default.fileExists(atPath: path), "the book read is not written again")
        _ = book.record(item("book.mp3"), at: 400, now: 1)
        second.keep(book)
        second.stop()
        #expect(store().load(minimumDuration: 600) == book)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
