import ControlProtocol
import Foundation
import PlaybackModel
import Testing

extension IntegrationSuite {
    /// Broken and hostile audio files, generated here from the fixtures: each is played as far
    /// as it is playable or rejected with a reason, and the daemon keeps answering throughout.
    @Suite struct HostileFiles {
        /// A syncsafe ID3v2 size (7 bits per byte).
        static func syncsafe(_ size: Int) -> [UInt8] {
            [UInt8((size >> 21) & 0x7F), UInt8((size >> 14) & 0x7F), UInt8((size >> 7) & 0x7F), UInt8(size & 0x7F)]
        }

        /// The corpus, written into `directory`: name → bytes.
        static func corpus(in directory: String) throws -> [String] {
            let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture("two.mp3"))))
            var generator = SplitMix64(seed: 11)
            let garbage = (0..<5_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let half = audio.count / 2
            let files: [(String, [UInt8])] = [
                // Cut in the middle of a frame.
                ("truncated-mid-frame.mp3", Array(audio.prefix(half + 137))),
                // Random bytes spliced between frames.
                ("garbage-between-frames.mp3", Array(audio.prefix(half)) + garbage + Array(audio.suffix(from: half))),
                // The last frame's header promises more bytes than the file has.
                ("short-last-frame.mp3", Array(audio.dropLast(300))),
                // An ID3v2 tag whose size points far past the end of the file.
                (
                    "id3-size-past-end.mp3",
                    Array("ID3".utf8) + [3, 0, 0] + syncsafe(200_000_000) + Array(audio.prefix(4000))
                ),
                // An APIC frame claiming 2 GiB, in a tag that claims as much.
                (
                    "apic-2gib.mp3",
                    Array("ID3".utf8) + [3, 0, 0] + syncsafe(0x0FFF_FFFF) + Array("APIC".utf8) + [
                        0x7F, 0xFF, 0xFF, 0xFF, 0, 0,
                    ]
                        + [0] + Array("image/jpeg".utf8) + [0, 3, 0] + [0xFF, 0xD8, 0xFF] + audio
                ),
                // Only an ID3 header, and a tag with nothing after it.
                ("id3-only.mp3", Array("ID3".utf8) + [4, 0, 0] + syncsafe(10) + [UInt8](repeating: 0, count: 10)),
                // A frame sync followed by nothing.
                ("lone-sync.mp3", [0xFF, 0xFB, 0x90, 0x64]),
                ("zero-length.mp3", []),
            ]
            for (name, bytes) in files {
                try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
            }
            try FileManager.default.createDirectory(
                atPath: directory + "/directory.mp3", withIntermediateDirectories: true)
            return files.map(\.0) + ["directory.mp3"]
        }

        @Test(
            "a corpus of broken MP3s: each played as far as it goes or rejected with a reason; the daemon answers throughout"
        )
        func brokenFiles() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let names = try Self.corpus(in: directory)
            let daemon = try DaemonProcess()
            let reply = try daemon.call(
                "enqueue", [("items", .array(names.map { .string(directory + "/" + $0) })), ("play", .bool(true))])
            #expect(reply["status"]?.stringValue == "success", "\(reply.serialized)")
            let added = reply["added"]?.arrayValue?.count ?? 0
            let rejected = reply["rejected"]?.arrayValue ?? []
            #expect(added + rejected.count == names.count, "every file is either added or rejected")
            for rejection in rejected {
                #expect(rejection["reason"]?.stringValue?.isEmpty == false, "\(rejection.serialized)")
            }
            let rejectedNames = Set(
                rejected.compactMap { $0["path"]?.stringValue?.split(separator: "/").last.map(String.init) })
            for name in ["zero-length.mp3", "directory.mp3", "lone-sync.mp3", "id3-only.mp3"] {
                #expect(rejectedNames.contains(name), "\(name) has no audio and is rejected")
            }
            for name in ["truncated-mid-frame.mp3", "garbage-between-frames.mp3", "short-last-frame.mp3"] {
                #expect(!rejectedNames.contains(name), "\(name) has playable audio and is added")
            }
            // Everything added plays to the end; the daemon answers all along.
            try daemon.waitForState("stopped", timeout: 60)
            #expect(daemon.isRunning)
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "stopped")
            let queue = try daemon.call("queue")
            #expect(queue["count"]?.numberValue == Double(added), "nothing was lost from the queue")
            // The playable parts were heard: at least the first half of the truncated file.
            let captured = try daemon.captured()
            #expect(captured.count > 44_100 * 4 * 3 / 2, "captured \(captured.count) bytes")
        }

        @Test(
            "a file truncated, and one deleted, while they play: playback goes on to the next item and the daemon answers"
        )
        func filesChangingUnderThePlayer() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for name in ["a.mp3", "b.mp3"] {
                try FileManager.default.copyItem(
                    atPath: TestEnvironment.fixture("long.mp3"), toPath: directory + "/" + name)
            }
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            let paths = ["a.mp3", "b.mp3"].map { directory + "/" + $0 } + [TestEnvironment.fixture("two.mp3")]
            _ = try daemon.call("enqueue", [("items", .array(paths.map(JSONValue.string))), ("play", .bool(true))])
            _ = try daemon.waitForState("playing")
            try daemon.waitForElapsed(atLeast: 0.5)
            // Truncate the playing file to a tenth, and delete the next one.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: paths[0]))
            try handle.truncate(atOffset: 100_000)
            try handle.close()
            try FileManager.default.removeItem(atPath: paths[1])
            var titles: [String] = []
            try waitUntil(timeout: 50, state: { "\(titles)" }) {
                let snapshot = try daemon.nowPlaying()
                if let title = snapshot["title"]?.stringValue, titles.last != title { titles.append(title) }
                return titles.last == "Two" || snapshot["state"]?.stringValue == "stopped"
            }
            #expect(daemon.isRunning)
            #expect(titles.contains("Two"), "the item after the lost ones plays: \(titles)")
            #expect(try daemon.call("queue")["count"]?.numberValue == 3, "the queue is intact")
        }
    }
}
