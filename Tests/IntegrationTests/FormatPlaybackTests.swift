import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// FLAC, Ogg Vorbis, Opus, AAC in MP4, ALAC, WAV and AIFF through the daemon as MP3 is
    /// proven: what reaches the device is the format's reference decoder's output (`flac -d`
    /// and `faad` byte for byte; `oggdec` and `opusdec --rate 48000 --no-dither` within 1 LSB,
    /// as they round floats themselves; AAC within 1 LSB after a seek), gapless, after a seek,
    /// and across changes of format; tags, covers and broken files.
    @Suite struct FormatPlayback {
        struct Format: Sendable, CustomTestStringConvertible {
            let prefix: String
            let ext: String
            let rate: Double
            /// How far a sample may be from the reference decoder's, in LSB.
            let tolerance: Int
            var testDescription: String { prefix }
        }

        static let formats = [
            Format(prefix: "flac", ext: "flac", rate: 44_100, tolerance: 0),
            Format(prefix: "vorbis", ext: "ogg", rate: 44_100, tolerance: 1),
            Format(prefix: "opus", ext: "opus", rate: 48_000, tolerance: 1),
            Format(prefix: "aac", ext: "m4a", rate: 44_100, tolerance: 1),
        ]

        static func data(_ fixture: String) throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture(fixture)))
        }

        /// Plays `names` through the capture device to the end; what was captured.
        static func play(_ names: [String], device: String = "playbackd_capture") throws -> DaemonProcess {
            let daemon = try DaemonProcess(device: device)
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try daemon.enqueue(names, play: true)
            #expect(reply["added"]?.arrayValue?.count == names.count, "\(reply.serialized)")
            try events.waitForState("stopped")
            return daemon
        }

        @Test(
            "three items cut from one signal are captured as the reference decoder's outputs end to end: gapless, each as long as its source",
            arguments: formats)
        func gaplessQueue(format: Format) throws {
            let names = ["one", "two", "three"].map { "\(format.prefix)-\($0)" }
            let captured = try Self.play(names.map { "\($0).\(format.ext)" }).captured()
            let expected = try names.map(TestEnvironment.reference).reduce(Data(), +)
            let difference = pcmDifference(captured, expected, tolerance: format.tolerance)
            #expect(difference == nil, "\(difference ?? "")")
            let signal = try Self.data(format.prefix == "opus" ? "opus-signal.raw" : "flac-signal.raw")
            #expect(captured.count == signal.count, "as long as the signal the items were cut from")
            if format.tolerance == 0 { #expect(captured == signal, "lossless: the signal itself") }
        }

        @Test(
            "paused at 7.25 s, then play: the capture is the reference from sample round(7.25 * rate)",
            arguments: formats)
        func seekThenPlay(format: Format) throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["\(format.prefix)-long.\(format.ext)"])
            let frame = Int((7.25 * format.rate).rounded())
            let reply = try daemon.call("changePlaybackPosition", [("position", .number(7.25))])
            #expect(reply["position"]?.numberValue == Double(frame) / format.rate)
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped")
            let reference = try TestEnvironment.reference("\(format.prefix)-long")
            let difference = pcmDifference(
                try daemon.captured(), reference.subdata(in: frame * 4..<reference.count), tolerance: format.tolerance)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test(
            "MP3 44.1 kHz, Opus 48 kHz, FLAC and AAC 44.1 kHz: the device reopens at each change, every item whole, each item's length and rate pushed"
        )
        func mixedQueue() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_per_format")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "opus-one.opus", "flac-one.flac", "aac-two.m4a"], play: true)
            // Every snapshot pushed until the end, by the item it names. The capture device does
            // not pace, so on a busy machine two boundaries may pass between two pushes: each
            // snapshot that names an item must be right, and the queue says every item's length.
            var pushed: [Int: JSONValue] = [:]
            try events.waitForEvent(timeout: 60) { event in
                if let snapshot = event["nowPlaying"], let index = snapshot["queueIndex"]?.numberValue {
                    pushed[Int(index)] = pushed[Int(index)] ?? snapshot
                }
                return event["changes"]?.arrayValue?.contains(.string("state")) == true
                    && event["nowPlaying"]?["state"]?.stringValue == "stopped"
            }
            let items = try daemon.call("queue")["items"]?.arrayValue ?? []
            let expected = [(104_517, 44_100.0), (113_761, 48_000.0), (104_521, 44_100.0), (137_153, 44_100.0)]
            #expect(items.count == expected.count)
            for (index, (frames, rate)) in expected.enumerated() {
                for snapshot in [items.count > index ? items[index] : nil, pushed[index]].compactMap({ $0 }) {
                    let duration = snapshot["duration"]?.numberValue ?? 0
                    #expect(abs(duration - Double(frames) / rate) < 1e-6, "item \(index): \(snapshot.serialized)")
                    #expect(snapshot["sampleRate"]?.numberValue == rate, "item \(index): \(snapshot.serialized)")
                }
            }
            #expect(pushed.keys.contains { $0 > 0 }, "a later item was pushed: \(pushed.keys.sorted())")
            #expect(
                pcmDifference(try daemon.captured(suffix: "_44100_2.raw"), try TestEnvironment.reference("one")) == nil)
            let opus = try daemon.captured(suffix: "_48000_2.raw")
            #expect(pcmDifference(opus, try TestEnvironment.reference("opus-one"), tolerance: 1) == nil)
            // FLAC and AAC share a format: one stream, gapless.
            let flac = try TestEnvironment.reference("flac-one")
            let continued = try daemon.captured(suffix: "_44100_2.raw.0001")
            #expect(continued.prefix(flac.count) == flac)
            let aac = try TestEnvironment.reference("aac-two")
            #expect(pcmDifference(Data(continued.dropFirst(flac.count)), aac, tolerance: 0) == nil)
        }

        @Test(
            "24-bit 96 kHz FLAC and ALAC between 16-bit items: the device reopens at S32_LE, every sample the reference's 24 bits at the top, the two 24-bit items one stream"
        )
        func twentyFourBits() throws {
            let daemon = try Self.play(
                ["flac-one.flac", "flac-24bit.flac", "alac-24bit.m4a", "flac-two.flac"],
                device: "playbackd_capture_per_format")
            let items = try daemon.call("queue")["items"]?.arrayValue ?? []
            #expect(items.map { $0["sampleRate"]?.numberValue } == [44_100, 96_000, 96_000, 44_100])
            #expect(
                items.count == 4 && items[1]["duration"]?.numberValue == 3 && items[2]["duration"]?.numberValue == 3)
            let widened = try TestEnvironment.widenedReference("flac-24bit")
            let hires = try daemon.captured(suffix: "_96000_2.raw")
            #expect(hires.count == 2 * 3 * 96_000 * 2 * 4, "two items of 3 s, stereo, 4 bytes a sample")
            #expect(pcmDifference(hires.prefix(widened.count), widened) == nil, "FLAC: every sample flac -d's")
            #expect(
                pcmDifference(hires.dropFirst(widened.count), try Self.data("alac-24bit.ref32.raw")) == nil,
                "ALAC right after it, gapless: ffmpeg -f s32le's")
            #expect(
                pcmDifference(try daemon.captured(suffix: "_44100_2.raw"), try TestEnvironment.reference("flac-one"))
                    == nil)
            #expect(
                pcmDifference(
                    try daemon.captured(suffix: "_44100_2.raw.0001"), try TestEnvironment.reference("flac-two"))
                    == nil)
        }

        @Test("8 kHz mono, six channels at 48 kHz and 24-bit 192 kHz: each reaches the device as it is, bit for bit")
        func ratesAndChannels() throws {
            let daemon = try Self.play(
                ["flac-8k.flac", "flac-6ch.flac", "flac-192k.flac"], device: "playbackd_capture_per_format")
            #expect(
                pcmDifference(try daemon.captured(suffix: "_8000_1.raw"), try TestEnvironment.reference("flac-8k"))
                    == nil)
            #expect(
                pcmDifference(try daemon.captured(suffix: "_48000_6.raw"), try TestEnvironment.reference("flac-6ch"))
                    == nil)
            #expect(
                pcmDifference(
                    try daemon.captured(suffix: "_192000_2.raw"), try TestEnvironment.widenedReference("flac-192k"))
                    == nil)
        }

        @Test("ALAC in MP4, AIFF and FLAC cut from one signal play as the signal itself, bit for bit")
        func losslessContainers() throws {
            let captured = try Self.play(["alac-one.m4a", "aiff-two.aiff", "flac-three.flac"]).captured()
            #expect(captured == (try Self.data("flac-signal.raw")))
        }

        @Test("an MP3 and a FLAC item of one format play as one stream, without a gap")
        func mp3ThenFLAC() throws {
            let captured = try Self.play(["one.mp3", "flac-one.flac", "two.mp3"]).captured()
            let expected = try ["one", "flac-one", "two"].map(TestEnvironment.reference).reduce(Data(), +)
            #expect(pcmDifference(captured, expected) == nil, "\(pcmDifference(captured, expected) ?? "")")
        }

        @Test(
            "Vorbis comments, FLAC PICTURE, METADATA_BLOCK_PICTURE and MP4 atoms reach the snapshot and the artwork file; ReplayGain from each",
            arguments: [
                ("flac-tags.flac", "Vorbis", "front.jpg", nil), ("vorbis-tags.ogg", "Vorbis", "front.jpg", -7.5),
                ("aac-tags.m4a", "MP4", "front.jpg", -4.25), ("opus-tags.opus", nil, "big.jpg", -5.0),
            ] as [(String, String?, String, Double?)])
        func tagsAndArtwork(file: String, album: String?, cover: String, trackGain: Double?) throws {
            let runtime = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            let daemon = try DaemonProcess(environment: ["XDG_RUNTIME_DIR": runtime])
            _ = try daemon.enqueue([file])
            let item = try daemon.nowPlaying()
            if let album {
                let expected: [(String, JSONValue)] = [
                    ("title", .string("日本語 ✓ Ünïcode")), ("artist", .string("Артист")), ("album", .string(album)),
                    ("albumArtist", .string("Band ♪")), ("composer", .string("Ω")), ("genre", .string("Jazz")),
                    ("year", .number(2010)), ("trackNumber", .number(3)), ("trackCount", .number(12)),
                    ("discNumber", .number(2)), ("discCount", .number(2)), ("duration", .number(1.5)),
                ]
                for (key, value) in expected { #expect(item[key] == value, "\(key) of \(item.serialized)") }
            } else {
                // Opus: R128 gains as ReplayGain gains, 5 dB up.
                #expect(item["title"]?.stringValue == "Opus tags" && item["trackNumber"]?.numberValue == 4)
                #expect(item["replayGainAlbumGain"]?.numberValue == 6)
            }
            #expect(item["replayGainTrackGain"]?.numberValue == trackGain)
            let url = try #require(item["artworkURL"]?.stringValue)
            #expect(url.hasSuffix(".jpg"), "the front cover, not the back one")
            #expect(try Data(contentsOf: URL(fileURLWithPath: String(url.dropFirst(7)))) == (try Self.data(cover)))
        }

        @Test(
            "broken files of each format: refused with the reason, or played as far as they decode; nothing else is lost"
        )
        func brokenFiles() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try daemon.enqueue(
                [
                    "garbage.flac", "garbage.ogg", "garbage.opus", "garbage.m4a",
                    "flac-lying-length.flac", "flac-truncated.flac", "flac-one.flac",
                ],
                play: true)
            let reasons = Dictionary(
                uniqueKeysWithValues: (reply["rejected"]?.arrayValue ?? []).compactMap { rejection in
                    (rejection["path"]?.stringValue?.split(separator: "/").last.map(String.init)).map {
                        ($0, rejection["reason"]?.stringValue ?? "")
                    }
                })
            #expect(reasons["garbage.flac"]?.contains("not a FLAC file (no fLaC marker)") == true, "\(reasons)")
            #expect(reasons["garbage.ogg"]?.contains("not an Ogg Vorbis file") == true, "\(reasons)")
            #expect(reasons["garbage.opus"]?.contains("not an Opus file") == true, "\(reasons)")
            #expect(reasons["garbage.m4a"]?.contains("not a playable audio file") == true, "\(reasons)")
            #expect(reply["added"]?.arrayValue?.count == 3, "\(reply.serialized)")
            try events.waitForState("stopped")
            #expect(try daemon.call("queue")["items"]?.arrayValue?.count == 3, "the queue is whole")
            let one = try TestEnvironment.reference("flac-one")
            let long = try TestEnvironment.reference("flac-long")
            let captured = try daemon.captured()
            // The lying item plays the samples it has; the truncated one as many as decode.
            #expect(captured.prefix(one.count) == one)
            #expect(captured.suffix(one.count) == one)
            let truncated = captured.dropFirst(one.count).dropLast(one.count)
            #expect(truncated.count > long.count / 3 && truncated.elementsEqual(long.prefix(truncated.count)))
        }

        @Test(
            "an MP4 whose moov claims 2 GiB and a FLAC PICTURE block claiming 4 GiB: both play whole, the picture passed over"
        )
        func lyingLengths() throws {
            let runtime = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            let daemon = try DaemonProcess(device: "playbackd_capture", environment: ["XDG_RUNTIME_DIR": runtime])
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try daemon.enqueue(["mp4-moov-past-end.m4a", "flac-picture-gigabytes.flac"], play: true)
            #expect(reply["added"]?.arrayValue?.count == 2, "\(reply.serialized)")
            try events.waitForState("stopped")
            let items = try daemon.call("queue")["items"]?.arrayValue ?? []
            #expect(items.last?["title"]?.stringValue == "日本語 ✓ Ünïcode", "the tags are read")
            #expect(items.last?["artworkURL"] == nil, "the broken picture is passed over")
            let aac = try TestEnvironment.reference("aac-one")
            let captured = try daemon.captured()
            #expect(pcmDifference(Data(captured.prefix(aac.count)), aac, tolerance: 0) == nil)
            #expect(captured.dropFirst(aac.count) == (try TestEnvironment.reference("flac-tags")))
        }

        @Test(
            "an Ogg stream with a page missing plays past the hole to its end",
            arguments: formats.filter { ["vorbis", "opus"].contains($0.prefix) })
        func missingPage(format: Format) throws {
            let captured = try Self.play(["\(format.prefix)-long-missing-page.\(format.ext)"]).captured()
            let reference = try TestEnvironment.reference("\(format.prefix)-long")
            #expect(captured.count > reference.count * 9 / 10 && captured.count < reference.count)
            let tail = 44_100 * 4
            let difference = pcmDifference(
                Data(captured.suffix(tail)), Data(reference.suffix(tail)), tolerance: format.tolerance)
            #expect(difference == nil, "the last second: \(difference ?? "")")
        }

        @Test("a directory gives its files of every format, in natural order, and nothing else")
        func directory() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let files = [
                ("2 b.flac", "flac-one.flac"), ("10 c.mp3", "one.mp3"), ("1 a.FLAC", "flac-two.flac"),
                ("3 d.ogg", "vorbis-one.ogg"), ("4 e.opus", "opus-one.opus"), ("5 f.m4a", "aac-one.m4a"),
                ("6 g.wav", "wave-one.wav"),
            ]
            for (name, fixture) in files {
                try FileManager.default.createSymbolicLink(
                    atPath: directory + "/" + name, withDestinationPath: TestEnvironment.fixture(fixture))
            }
            _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("x".utf8))
            let daemon = try DaemonProcess()
            _ = try daemon.call("enqueue", [("items", .array([.string(directory)]))])
            let titles = try daemon.call("queue")["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
            #expect(titles == ["Dos", "Uno", "Vorbis one", "Opus one", "AAC one", "6 g", "One"])
        }
    }
}
