import Foundation
import PlaybackModel
import Testing

@testable import PlaybackDaemon

@Suite struct BookmarkStoreTests {
    let directory = NSTemporaryDirectory() + "playbackd-bookmarks-\(UUID().uuidString)"
    let loop = EventLoop()
    let log = DaemonLog(label: "test", output: LogOutput(threshold: .error, target: .stderr))

    func store(_ minimum: Double = 600) -> BookmarkStore {
        BookmarkStore(path: directory + "/bookmarks.json", minimumDuration: minimum, loop: loop, log: log)
    }

    /// A file of `bytes` bytes at `name`, and an item of `duration` seconds for it.
    func item(_ name: String, duration: Double = 1800, bytes: Int = 100) throws -> QueueItem {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: Data(count: bytes))
        }
        return QueueItem(
            id: 1, path: path, metadata: TrackMetadata(title: name, duration: duration, sampleRate: 44_100, channels: 2)
        )
    }

    @Test("a long item's position is kept, written and read back; short, finished and unstarted items keep none")
    func records() throws {
        let bookmarks = store()
        let book = try item("book.mp3")
        bookmarks.record(book, at: 95.5, now: 1000)
        #expect(bookmarks.position(for: book) == 95.5)
        bookmarks.flush()
        #expect(store().position(for: book) == 95.5, "read back from the file")
        bookmarks.record(book, at: 1780)
        #expect(bookmarks.position(for: book) == nil, "within 30 s of the end: finished")
        bookmarks.record(book, at: 10)
        bookmarks.record(book, at: 0)
        #expect(bookmarks.position(for: book) == nil, "back at the start")
        let song = try item("song.mp3", duration: 200)
        bookmarks.record(song, at: 50)
        #expect(bookmarks.position(for: song) == nil)
        #expect(store(0).keepsBookmark(book) == false, "0 turns bookmarks off")
    }

    @Test(
        "a bookmark follows its file: moved (same size and time), retagged (same path and length), not another recording"
    )
    func followsTheFile() throws {
        let bookmarks = store()
        let book = try item("book.mp3")
        bookmarks.record(book, at: 300)
        let moved = directory + "/moved.mp3"
        try FileManager.default.moveItem(atPath: book.path, toPath: moved)
        var movedItem = book
        movedItem.path = moved
        #expect(bookmarks.position(for: movedItem) == 300)
        var other = try item("book.mp3", duration: 1500)
        #expect(bookmarks.position(for: other) == nil, "another recording at the path")
        other.metadata.duration = 1800.2
        #expect(bookmarks.position(for: other) == 300, "the same length: retagged")
    }

    @Test("at most 1000 bookmarks, the oldest dropped; forget one or all; an unreadable file is set aside")
    func bounded() throws {
        let bookmarks = store()
        var first: QueueItem?
        for index in 0...BookmarkStore.maximumCount {
            var book = try item("b\(index).mp3", bytes: 100 + index)
            book.id = UInt64(index)
            first = first ?? book
            bookmarks.record(book, at: 100, now: Double(index))
        }
        #expect(bookmarks.bookmarks.count == BookmarkStore.maximumCount)
        #expect(bookmarks.position(for: first!) == nil, "the oldest went")
        #expect(bookmarks.bookmarks.first?.saved == Double(BookmarkStore.maximumCount), "newest first")
        #expect(bookmarks.forget(path: directory + "/b5.mp3"))
        #expect(!bookmarks.forget(path: directory + "/b5.mp3"))
        #expect(bookmarks.forgetAll() == BookmarkStore.maximumCount - 1)
        bookmarks.flush()
        try Data("{\"version\":1,\"bookmarks\":[{\"path\":\"relative\"}]}".utf8).write(
            to: URL(fileURLWithPath: directory + "/bookmarks.json"))
        #expect(store().bookmarks.isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory + "/bookmarks.json.corrupt"))
    }
}
