import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 5, acceptance 1 (metadata and artwork): ID3v2.2, 2.3 and 2.4 tags in Latin-1,
    /// UTF-16 and UTF-8, written byte by byte by `Scripts/lib/write-id3.py`.
    @Suite struct Metadata {
        private func items(_ daemon: DaemonProcess, _ names: [String]) throws -> [JSONValue] {
            let reply = try daemon.enqueue(names)
            // The reply must say what it rejected: a missing `rejected` fails, as an entry does.
            #expect(reply["rejected"]?.arrayValue == [], "\(reply.serialized)")
            return try daemon.call("queue")["items"]?.arrayValue ?? []
        }

        @Test("every tag field, in every ID3v2 version and text encoding")
        func fields() throws {
            let runtime = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            let daemon = try DaemonProcess(environment: ["XDG_RUNTIME_DIR": runtime])
            let queue = try items(daemon, ["tag-v22-latin1.mp3", "tag-v23-utf16.mp3", "withcover/tag-v24-utf8.mp3"])
            try #require(queue.count == 3)
            let expected: [[String: JSONValue]] = [
                [
                    "title": .string("Café Zoë"), "artist": .string("Latin"), "album": .string("Two"),
                    "albumArtist": .string("Various"), "trackNumber": .number(3), "trackCount": .number(12),
                    "discNumber": .number(1), "discCount": .number(2), "genre": .string("Pop"), "year": .number(1999),
                    "composer": .string("Composer"),
                ],
                [
                    "title": .string("日本語 ✓ Ünïcode"), "artist": .string("Артист"), "album": .string("Three"),
                    "albumArtist": .string("Band ♪"), "trackNumber": .number(7), "discNumber": .number(2),
                    "discCount": .number(2), "genre": .string("Rock"), "year": .number(2004),
                    "composer": .string("Ñoño"), "isrc": .string("GBAYE0601498"),
                    "musicBrainzAlbumID": .string("1e0eee38-a9f6-49bf-84d0-45d0647799af"),
                    "musicBrainzReleaseGroupID": .string("5a7d1f46-2a5e-3a6f-8d8a-e3a4c4d3f3b1"),
                ],
                [
                    "title": .string("Four 🎵"), "artist": .string("Utf8"), "album": .string("Four"),
                    "trackNumber": .number(10), "trackCount": .number(10), "genre": .string("Jazz"),
                    "year": .number(2010), "composer": .string("Ω"),
                ],
            ]
            for (item, fields) in zip(queue, expected) {
                for (key, value) in fields { #expect(item[key] == value, "\(key) of \(item.serialized)") }
            }
            #expect(queue[1]["trackCount"] == nil, "TRCK without a count")
            #expect(queue[2]["albumArtist"] == nil && queue[2]["discNumber"] == nil, "absent when untagged")
            let nowPlaying = try daemon.nowPlaying()
            #expect(nowPlaying["albumArtist"]?.stringValue == "Various", "the snapshot carries them too")
        }

        @Test("the front cover is written once per image, byte for byte; cover.jpg beside the file is the fallback")
        func artwork() throws {
            let runtime = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            let daemon = try DaemonProcess(environment: ["XDG_RUNTIME_DIR": runtime])
            let queue = try items(
                daemon, ["tag-v22-latin1.mp3", "tag-v23-utf16.mp3", "withcover/tag-v24-utf8.mp3", "tag-v22-latin1.mp3"])
            let urls = queue.map { $0["artworkURL"]?.stringValue }
            let directory = "file://" + runtime + "/playbackd/artwork/"
            let png = try #require(urls[0])
            let jpeg = try #require(urls[1])
            #expect(png.hasPrefix(directory) && png.hasSuffix(".png"), "\(urls)")
            #expect(jpeg.hasPrefix(directory) && jpeg.hasSuffix(".jpg"), "the front cover, not the back one")
            #expect(urls[2] == "file://" + TestEnvironment.fixture("withcover/cover.jpg"))
            #expect(urls[3] == png, "the same image is the same file")
            let written = { (url: String) throws -> Data in
                try Data(contentsOf: URL(fileURLWithPath: String(url.dropFirst(7))))
            }
            #expect(try written(png) == Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture("front.png"))))
            #expect(try written(jpeg) == Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture("front.jpg"))))
            let files = try FileManager.default.contentsOfDirectory(atPath: runtime + "/playbackd/artwork")
            #expect(files.count == 2, "\(files)")
            #expect(queue.allSatisfy { $0["title"] != nil })
            #expect(try daemon.call("queue")["items"]?.arrayValue?.count == 4)
            let untagged = try daemon.enqueue(["one.mp3"])
            #expect(untagged["added"]?.arrayValue?.count == 1)
            #expect(try daemon.call("queue")["items"]?.arrayValue?.last?["artworkURL"] == nil, "no cover, no URL")
        }
    }
}
