import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Chapters written by independent tools (mutagen's ID3 `CHAP`/`CTOC`, ffmpeg's MP4
    /// chapters, vorbiscomment's and opusenc's `CHAPTERnnn` comments), moved between
    /// sample-accurately.
    @Suite struct Chapters {
        /// Each fixture's chapters as its tool wrote them: start, end, title.
        static let written: [(String, [(Double, Double, String)])] = [
            (
                "chapters.mp3",
                [(0, 3.5, "Opening"), (3.5, 7.25, "Middle part"), (7.25, 10, "Ünïcode ✓"), (10, 12, "Chapter 4")]
            ),
            ("chapters.m4b", [(0, 2.5, "Prologue"), (2.5, 5, "Chapter One"), (5, 8, "Épilogue")]),
            ("chapters.ogg", [(0, 3.25, "Start"), (3.25, 6, "Second"), (6, 8, "Chapter 3")]),
            ("chapters.opus", [(0, 3.25, "Start"), (3.25, 6, "Second"), (6, 8, "Chapter 3")]),
            // Overlapping, out of order, past the end, untitled, a duplicate start, and a
            // table of contents naming a chapter that is not there: sorted, clipped, named.
            ("chapters-broken.mp3", [(0, 2, "Chapter 1"), (2, 9, "Overlaps"), (9, 12, "Past the end")]),
        ]

        @Test("chapters lists what mutagen, ffmpeg, vorbiscomment and opusenc wrote", arguments: written.indices)
        func listed(index: Int) throws {
            let (file, expected) = Self.written[index]
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue([file])
            let reply = try daemon.call("chapters")
            let chapters = try #require(reply["chapters"]?.arrayValue, "\(reply.serialized)")
            #expect(chapters.count == expected.count, "\(reply.serialized)")
            for (chapter, (start, end, title)) in zip(chapters, expected) {
                // MP4 keeps chapter times in its own timescale: within a millisecond.
                #expect(abs((chapter["start"]?.numberValue ?? -1) - start) < 0.001, "\(chapter.serialized)")
                #expect(abs((chapter["end"]?.numberValue ?? -1) - end) < 0.03, "\(chapter.serialized)")
                #expect(chapter["title"]?.stringValue == title)
            }
            let snapshot = try daemon.nowPlaying()
            #expect(
                snapshot["chapterNumber"]?.numberValue == 0
                    && snapshot["chapterCount"]?.numberValue == Double(expected.count))
            #expect(snapshot["chapterTitle"]?.stringValue == expected[0].2)
        }

        @Test("nextChapter lands on the next chapter's first sample; previousChapter restarts the chapter or goes back")
        func moves() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["chapters.mp3"])
            func position(after command: String, from seconds: Double? = nil) throws -> Double? {
                if let seconds { _ = try daemon.call("changePlaybackPosition", [("position", .number(seconds))]) }
                let reply = try daemon.call(command)
                #expect(reply["status"]?.stringValue == "success", "\(reply.serialized)")
                return reply["position"]?.numberValue
            }
            // 1.25 s into the third chapter: back to the second's start; 2.5 s into the second:
            // to the first's; 3.5 s in: the second restarts.
            #expect(try position(after: "previousChapter", from: 8.5) == 3.5)
            #expect(try position(after: "previousChapter", from: 6) == 0)
            #expect(try position(after: "previousChapter", from: 7) == 3.5)
            #expect(try position(after: "nextChapter", from: 7.2) == 7.25)
            let snapshot = try daemon.nowPlaying()
            #expect(snapshot["chapterNumber"]?.numberValue == 2 && snapshot["chapterStart"]?.numberValue == 7.25)
            #expect(try position(after: "nextChapter", from: 0) == 3.5)
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped")
            let frame = 154_350  // 3.5 s at 44.1 kHz
            let reference = try TestEnvironment.reference("chapters")
            let difference = pcmDifference(try daemon.captured(), reference.subdata(in: frame * 4..<reference.count))
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("without chapters the chapter commands are disabled, and say why")
        func disabledWithoutChapters() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3"])
            let commands = try #require(try daemon.call("commands")["commands"]?.arrayValue)
            for name in ["nextChapter", "previousChapter"] {
                let entry = commands.first { $0["command"]?.stringValue == name }
                #expect(entry?["enabled"] == .bool(false), "\(name): \(entry?.serialized ?? "missing")")
                let reply = try daemon.call(name)
                #expect(reply["status"]?.stringValue == "commandDisabled")
                #expect(reply["message"]?.stringValue?.contains("no chapters") == true, "\(reply.serialized)")
            }
            #expect(try daemon.call("chapters")["chapters"] == .array([]))
            #expect(try daemon.nowPlaying()["chapterNumber"] == nil)
            _ = try daemon.enqueue(["chapters.mp3"], replace: true)
            let enabled = try #require(try daemon.call("commands")["commands"]?.arrayValue)
            #expect(enabled.first { $0["command"]?.stringValue == "nextChapter" }?["enabled"] == .bool(true))
        }
    }
}

extension MachineSuite {
    /// A boundary pushed when it is heard, on the paced sink: alone, because a null sink whose
    /// server was starved catches up in one step (1.7 s once, beside the whole suite), and the
    /// daemon rightly follows it.
    @Suite struct ChapterBoundaries {
        @Test("while playing, each chapter boundary is pushed once, when it is heard")
        func pushedAtBoundaries() throws {
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["chapters.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(5))])
            _ = try daemon.call("play")
            var snapshots: [(changes: [String], snapshot: JSONValue)] = []
            try events.waitForEvent(timeout: 60) { event in
                guard let snapshot = event["nowPlaying"] else { return false }
                let changes = event["changes"]?.arrayValue?.compactMap(\.stringValue) ?? []
                snapshots.append((changes, snapshot))
                return snapshot["state"]?.stringValue == "stopped" && snapshot["title"] == nil
            }
            let playing = snapshots.filter { $0.snapshot["state"]?.stringValue == "playing" }
            let announced = playing.filter { $0.changes.contains("chapter") }
            #expect(announced.map { $0.snapshot["chapterNumber"]?.numberValue } == [2, 3], "\(snapshots)")
            // A boundary crossed before the start was announced comes with the start.
            for (_, snapshot) in announced.filter({ !$0.changes.contains("state") }) {
                let elapsed = try #require(snapshot["elapsed"]?.numberValue)
                let start = try #require(snapshot["chapterStart"]?.numberValue)
                // Pushed when the boundary is heard: the anchor (the output's last measurement,
                // up to one 250 ms device period old) is at the boundary, not a tick later.
                print("chapters: the boundary at \(start) s announced with the anchor at \(elapsed) s")
                #expect(elapsed - start < 0.1 && start - elapsed < 0.3, "chapter \(start): anchor \(elapsed)")
            }
            // No other snapshot while playing shows a chapter change without saying so.
            var shown: Double?
            for (changes, snapshot) in playing {
                let number = snapshot["chapterNumber"]?.numberValue
                if let shown, number != shown {
                    #expect(
                        changes.contains("chapter") || changes.contains("position"), "\(changes) \(snapshot.serialized)"
                    )
                }
                shown = number
            }
        }
    }
}
