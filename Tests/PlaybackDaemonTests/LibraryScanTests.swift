import Foundation
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The scan's two halves without a daemon: the walk shared out among threads finds what one
/// walk finds, and the comparison with the index picks exactly the files to read.
@Suite struct LibraryScanTests {
    private static func makeDirectory(_ name: String) -> String {
        let directory = NSTemporaryDirectory() + "pbd-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func file(_ path: String) {
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]))
    }

    @Test("the walk shared out among threads finds what one walk finds, links to folders read before left out")
    func parallelWalk() throws {
        let root = Self.makeDirectory("walk")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in 0..<40 { Self.file(root + "/artist \(folder)/album/\(folder).mp3") }
        Self.file(root + "/a/1.mp3")
        Self.file(root + "/a/sub/2.flac")
        Self.file(root + "/a/cover.jpg")
        Self.file(root + "/top.opus")
        Self.file(root + "/b/notes.txt")
        let links = [
            ("/b/to a", "../a"),  // a folder read before, from another subfolder
            ("/c/loop", ".."),  // the root itself
            ("/e", "b"),  // a subfolder of the root, read before
            ("/0 first", "z"),  // a subfolder of the root read after it: read here, not there
            ("/a/dangling.mp3", "nowhere.mp3"),
        ]
        Self.file(root + "/z/9.ogg")
        try FileManager.default.createDirectory(atPath: root + "/c", withIntermediateDirectories: true)
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(atPath: root + link, withDestinationPath: target)
        }
        var alone = LibraryWalk()
        alone.walk(root)
        let shared = LibraryWalk.walking(root)
        #expect(shared.files.map(\.path) == alone.files.map(\.path))
        #expect(shared.files.map(\.identity) == alone.files.map(\.identity))
        #expect(shared.folders == alone.folders)
        #expect(shared.failures == alone.failures)
        let names = alone.files.map { String($0.path.dropFirst(root.count)) }
        #expect(names.contains("/0 first/9.ogg") && !names.contains("/z/9.ogg"))
        #expect(!names.contains { $0.hasPrefix("/b/to a/") || $0.hasPrefix("/e/") || $0.hasPrefix("/c/loop/") })
        #expect(names.contains("/a/sub/2.flac") && names.contains("/top.opus") && names.count == 44)
        #expect(alone.failures.map(\.path) == [root + "/a/dangling.mp3"])
        #expect(alone.files.first { $0.path.hasSuffix("/a/1.mp3") }?.folderCover == root + "/a/cover.jpg")
    }

    @Test(
        "a folder's names sort as Swift's strings do, whether ASCII or not; hidden ones are left out, bad UTF-8 refused"
    )
    func folderNames() {
        let names = [
            "b.mp3", "a.mp3", "B.mp3", "\u{E9}t\u{E9}.mp3", "e\u{301}te\u{301}.mp3", "ete.mp3", "a longer name.mp3",
            "Zz", "\u{C4}", "A\u{308}b", "a", "ab", "\u{1F3B5}", "", ".hidden", "\u{E9}", "e",
        ]
        var folder = FolderNames()
        for name in names {
            var bytes = name
            #expect(bytes.withUTF8 { folder.add($0, kind: 8) })
        }
        #expect([0xC3, 0x28].withUnsafeBufferPointer { folder.add($0, kind: 8) } == false)
        folder.sort()
        let sorted = folder.indices.map { folder.name(at: $0) }
        #expect(sorted == names.filter { !$0.hasPrefix(".") }.sorted())
        #expect(
            folder.indices.allSatisfy { index in folder.withCName(at: index) { String(cString: $0) } == sorted[index] })
    }

    @Test("the comparison reads new, changed and replaced files, not moved-away rows' files, and names those gone")
    func comparison() throws {
        let directory = Self.makeDirectory("compare")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try LibraryWriter(indexPath: directory + "/index.sqlite", userPath: directory + "/user.sqlite")
        func identity(_ inode: Int64, size: Int64 = 100, modified: Int64 = 7) -> LibraryFileIdentity {
            LibraryFileIdentity(size: size, modified: modified, inode: inode)
        }
        let indexed: [(String, LibraryFileIdentity)] = [
            ("/m/same.mp3", identity(1)), ("/m/touched.mp3", identity(2)), ("/m/replaced.mp3", identity(3)),
            ("/m/old name.mp3", identity(4)), ("/m/gone.mp3", identity(5)), ("/m/link one.mp3", identity(6)),
            ("/m/link two.mp3", identity(6)), ("/other/elsewhere.mp3", identity(9)),
        ]
        for (index, (path, identity)) in indexed.enumerated() {
            let metadata = TrackMetadata(title: path, duration: 1, sampleRate: 44_100, channels: 2)
            try writer.write(
                ScannedSong(path: path, identity: identity, metadata: metadata, folderCover: nil), id: Int64(index + 1))
        }
        let walked = [
            ("/m/link one.mp3", identity(6)), ("/m/link two.mp3", identity(6)), ("/m/new name.mp3", identity(4)),
            ("/m/new.mp3", identity(8)), ("/m/replaced.mp3", identity(30)), ("/m/same.mp3", identity(1)),
            ("/m/touched.mp3", identity(2, modified: 8)),
        ].map { LibraryWalk.File(path: $0.0, identity: $0.1, folderCover: nil) }
        let compared = try LibraryComparison(
            walked: WalkedFiles(walked), under: "/m/", full: false, database: writer.database)
        #expect(compared.toRead.map(\.path) == ["/m/new name.mp3", "/m/new.mp3", "/m/replaced.mp3", "/m/touched.mp3"])
        #expect(compared.gone.sorted() == ["/m/gone.mp3", "/m/old name.mp3"])
        #expect(compared.indexedCount == 7, "the folder's rows, not /other's")
        let full = try LibraryComparison(walked: WalkedFiles(walked), under: nil, full: true, database: writer.database)
        #expect(full.toRead.map(\.path) == walked.map(\.path) && full.indexedCount == 8)
        #expect(full.gone.sorted() == ["/m/gone.mp3", "/m/old name.mp3", "/other/elsewhere.mp3"])
    }
}
