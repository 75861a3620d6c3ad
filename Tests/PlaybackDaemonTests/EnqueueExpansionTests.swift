import Foundation
import Testing

@testable import PlaybackDaemon

@Suite struct EnqueueExpansionTests {
    @Test("natural order: numbers by value, letters without case, a total order")
    func naturalOrder() {
        let names = [
            "10 - y.mp3", "2 - x.mp3", "b.mp3", "A.mp3", "track 02.mp3", "track 1.mp3", "track 010.mp3", "a.mp3",
        ]
        #expect(
            names.sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "2 - x.mp3", "10 - y.mp3", "A.mp3", "a.mp3", "b.mp3", "track 1.mp3", "track 02.mp3", "track 010.mp3",
            ])
        #expect(!NaturalOrder.areInIncreasingOrder("x", "x"))
    }

    @Test("a playlist's bytes: BOM, CRLF and CR endings, #EXTINF titles, comments, Latin-1")
    func playlistText() {
        let utf8 = M3UPlaylist(
            bytes: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\r\n#EXTINF:12, Été \r\n a.mp3\t\r\r\n#x\rb.mp3".utf8))
        #expect(utf8.entries == [.init(location: "a.mp3", title: "Été"), .init(location: "b.mp3", title: nil)])
        let latin1 = M3UPlaylist(bytes: Array("#EXTINF:1,".utf8) + [0xC9, 0x74, 0xE9, 0x0A] + Array("c.mp3".utf8))
        #expect(latin1.entries == [.init(location: "c.mp3", title: "Été")])
        #expect(M3UPlaylist(bytes: Array("#EXTINF:1,only a title\n\n  \n".utf8)).entries.isEmpty)
    }

    @Test("playlist entries resolve against the playlist; file URLs are decoded; http(s) URLs kept, others refused")
    func resolving() {
        #expect(M3UPlaylist.path(of: "a/b.mp3", base: "/m") == "/m/a/b.mp3")
        #expect(M3UPlaylist.path(of: "/abs.mp3", base: "/m") == "/abs.mp3")
        #expect(M3UPlaylist.path(of: "file:///x/a%20b%C3%BC.mp3", base: "/m") == "/x/a bü.mp3")
        #expect(M3UPlaylist.path(of: "file://localhost/x.mp3", base: "/m") == "/x.mp3")
        #expect(M3UPlaylist.path(of: "http://host/stream", base: "/m") == "http://host/stream")
        #expect(M3UPlaylist.path(of: "ftp://host/stream", base: "/m") == nil)
        #expect(M3UPlaylist.path(of: "C:relative.mp3", base: "/m") == "/m/C:relative.mp3")
    }

    @Test("a Latin-1 .m3u is read as Latin-1; nested playlists and a loop of them stop at the depth limit")
    func latin1AndNesting() throws {
        let directory = NSTemporaryDirectory() + "pbd-expand-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/café.mp3", contents: Data([0]))
        try Data("#EXTINF:1,Caf\u{E9}\ncaf\u{E9}.mp3\n".unicodeScalars.map { UInt8($0.value) })
            .write(to: URL(fileURLWithPath: directory + "/old.m3u"))
        try "self.m3u\n".write(toFile: directory + "/self.m3u", atomically: true, encoding: .utf8)
        let (candidates, rejected) = EnqueueExpander(limit: 10).expand([
            directory + "/old.m3u", directory + "/self.m3u",
        ])
        #expect(candidates == [EnqueueCandidate(path: directory + "/café.mp3", title: "Café")])
        #expect(rejected.map(\.reason) == ["nested too deeply"])
    }

    @Test("the walk stops collecting at its limit")
    func limit() throws {
        let directory = NSTemporaryDirectory() + "pbd-limit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for index in 1...5 {
            _ = FileManager.default.createFile(atPath: "\(directory)/\(index).mp3", contents: Data([0]))
        }
        let (candidates, _) = EnqueueExpander(limit: 3).expand([directory])
        #expect(candidates.map(\.path) == (1...3).map { "\(directory)/\($0).mp3" })
        var bounded = EnqueueExpander(limit: 10)
        bounded.maximumEntries = 4  // of 7 ("." and ".." count): some files are never listed
        let (few, rejected) = bounded.expand([directory, directory + "/5.mp3"])
        #expect(few.count < 6, "without the cut: the 5 files, then the one named again: \(few)")
        #expect(few.last?.path == directory + "/5.mp3")
        #expect(rejected.map(\.reason) == ["stopped after reading 4 directory entries"])
    }
}

@Suite struct PLSPlaylistTests {
    @Test("entries in the order of their numbers, with their titles; other lines passed over")
    func readsEntries() {
        let text =
            "[playlist]\r\nFile2=http://b/\r\nTitle1= One \r\nfile1=http://a/\r\nLength1=-1\r\nFile3=\r\nNumberOfEntries=2\r\nVersion=2"
        let entries = PLSPlaylist(bytes: Array(text.utf8)).entries
        #expect(entries.map(\.location) == ["http://a/", "http://b/"])
        #expect(entries.map(\.title) == ["One", nil])
        #expect(PLSPlaylist(bytes: Array("not a playlist".utf8)).entries.isEmpty)
    }
}
