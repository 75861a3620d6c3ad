import ControlProtocol
import Foundation
import PlaybackEngine
import Testing

extension IntegrationSuite {
    /// Issue 50: what the device receives over a crossfade is each item byte for byte outside
    /// the overlap and the documented equal-power sum inside it (`CrossfadeCurve`), within the
    /// dither's LSB and the rounding's.
    @Suite struct Crossfade {
        static let rate = 44_100
        /// Rounding (half an LSB) and the TPDF dither (one LSB) of the mix, with room for the
        /// sine's floating point.
        static let tolerance = 2

        @Test("Two unrelated items cross over 3 s: each exact outside the overlap, the curves' sum within it")
        func unrelatedItemsCrossfade() throws {
            let daemon = try DaemonProcess()
            let events = try daemon.connect()
            _ = try events.subscribe()
            let set = try daemon.call("setCrossfade", [("seconds", .number(3)), ("mode", .string("always"))])
            #expect(set["status"]?.stringValue == "success", "\(set)")
            _ = try daemon.enqueue(["xf-out.flac", "xf-in.flac"], play: true)
            try events.waitForState("stopped")
            let (outgoing, incoming) = (try Self.frames("xf-out"), try Self.frames("xf-in"))
            let overlap = 3 * Self.rate
            let captured = Self.frames(of: try daemon.captured())
            #expect(captured.count == outgoing.count + incoming.count - overlap * 2, "the sum less the overlap")
            let fadeStart = outgoing.count / 2 - overlap
            try Self.expectCrossfade(
                captured, outgoing: outgoing, fadeStart: fadeStart, incoming: incoming, soundStart: 0, overlap: overlap)
        }

        @Test("In albums mode an album's tracks stay gapless and exact; the item after it fades")
        func albumStaysGapless() throws {
            let daemon = try DaemonProcess()
            let events = try daemon.connect()
            _ = try events.subscribe()
            // The last track (2.0 s) is longer than the fade: it fades over the album's end alone.
            let set = try daemon.call("setCrossfade", [("seconds", .number(1.5))])
            #expect(set["status"]?.stringValue == "success", "\(set)")
            #expect(try daemon.nowPlaying()["crossfade"]?["mode"]?.stringValue == "albums")
            _ = try daemon.enqueue(["xf-album1.flac", "xf-album2.flac", "xf-album3.flac", "xf-in.flac"], play: true)
            try events.waitForState("stopped")
            let album = try (1...3).map { try Self.frames("xf-album\($0)") }.reduce([], +)
            let incoming = try Self.frames("xf-in")
            let overlap = 3 * Self.rate / 2
            let captured = Self.frames(of: try daemon.captured())
            #expect(captured.count == album.count + incoming.count - overlap * 2)
            try Self.expectCrossfade(
                captured, outgoing: album, fadeStart: album.count / 2 - overlap, incoming: incoming, soundStart: 0,
                overlap: overlap)
        }

        @Test("An item ending in 4 s of silence fades from where its sound ends")
        func trailingSilenceIsPassedOver() throws {
            let daemon = try DaemonProcess()
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.call("setCrossfade", [("seconds", .number(2)), ("mode", .string("always"))])
            _ = try daemon.enqueue(["xf-tail.flac", "xf-in.flac"], play: true)
            try events.waitForState("stopped")
            let (outgoing, incoming) = (try Self.frames("xf-tail"), try Self.frames("xf-in"))
            let overlap = 2 * Self.rate
            let captured = Self.frames(of: try daemon.captured())
            // The tone ends at 3 s; the music's end is found to a 10 ms window.
            let musicEnd = (captured.count - incoming.count) / 2 + overlap
            #expect(abs(musicEnd - 3 * Self.rate) <= Self.rate / 100, "music ends at frame \(musicEnd)")
            try Self.expectCrossfade(
                captured, outgoing: outgoing, fadeStart: musicEnd - overlap, incoming: incoming, soundStart: 0,
                overlap: overlap)
        }

        @Test("A skip mid-item fades over 1 s from the position heard, and the position pushed is the incoming item's")
        func skipFadesFromThePositionHeard() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            let fifo = directory + "/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            // The FIFO is read by the test: playback stands where the test stopped reading.
            let daemon = try DaemonProcess(device: "playbackd_fifo", environment: ["PLAYBACKD_FIFO": fifo])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.call("setCrossfade", [("seconds", .number(3)), ("mode", .string("always"))])
            _ = try daemon.enqueue(["xf-out.flac", "xf-in.flac"], play: true)
            let reader = open(fifo, O_RDWR | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            var captured = Data()
            func read(until enough: (Data) -> Bool, timeout: Double) {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let deadline = Date().addingTimeInterval(timeout)
                while !enough(captured) && Date() < deadline {
                    var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                    guard poll(&descriptor, 1, 100) > 0 else { continue }
                    let count = Glibc.read(reader, &buffer, buffer.count)
                    if count > 0 { captured.append(contentsOf: buffer[0..<count]) }
                }
            }
            // 2 s of the first item, then nothing more is read: the daemon waits on the FIFO.
            read(until: { $0.count >= 2 * Self.rate * 4 }, timeout: 20)
            let skipped = try daemon.call("nextTrack")
            #expect(skipped["status"]?.stringValue == "success")
            let moved = try events.waitForEvent { $0["nowPlaying"]?["title"]?.stringValue == "In" }
            let elapsed = moved["nowPlaying"]?["elapsed"]?.numberValue ?? -1
            #expect(elapsed >= 0 && elapsed < 0.5, "the incoming item's position from the start: \(elapsed)")
            let (outgoing, incoming) = (try Self.frames("xf-out"), try Self.frames("xf-in"))
            // The rest, until the queue has ended (it waits on the FIFO) and its last samples are read.
            try waitUntil(timeout: 60) {
                read(until: { _ in false }, timeout: 0.1)
                return try daemon.nowPlaying()["state"]?.stringValue == "stopped"
            }
            read(until: { _ in false }, timeout: 0.3)
            let samples = Self.frames(of: captured)
            // The capture is the first item as far as it was written (past where it was heard:
            // the device's buffer), then the fade from where it was heard, then the rest.
            let overlap = Self.rate
            let written = (samples.count - incoming.count) / 2
            #expect(written > 0 && written < 3 * Self.rate, "written \(written) frames of the first item")
            let difference = Self.firstDifference(samples.prefix(2 * written), outgoing.prefix(2 * written))
            #expect(difference == nil, "the first item as written: \(difference ?? "")")
            let heard = Self.bestStart(of: samples.dropFirst(2 * written).prefix(2048), in: outgoing, upTo: written)
            // Between what reached the FIFO and what the daemon counts as heard lie the pipe's
            // 64 KiB, the file plugin's and ALSA's buffers, and a reading from before a write
            // the FIFO held when the skip came: the fade begins before what was written.
            print("crossfade: a skip faded from frame \(heard), \(written - heard) before the last written")
            #expect(heard > 0 && heard <= written, "faded from frame \(heard), \(written) written")
            try Self.expectCrossfade(
                samples, outgoing: outgoing,
                fadeStart: heard, incoming: incoming, soundStart: 0, overlap: overlap, outgoingWritten: written)
        }

        @Test(
            "A live stream fades in after a file, at its own pace: the file exact up to the fade, the stream from its start in the sum"
        )
        func liveStreamFadesIn() throws {
            let server = try StreamServer()
            let daemon = try DaemonProcess()
            _ = try daemon.call("setCrossfade", [("seconds", .number(2)), ("mode", .string("always"))])
            let live = server.url("live/long.mp3?metaint=8192&titles=Live&rate=32000")
            let reply = try daemon.call(
                "enqueue",
                [
                    ("items", .array([.string(TestEnvironment.fixture("xf-out.flac")), .string(live)])),
                    ("play", .bool(true)),
                ])
            #expect(reply["rejected"]?.arrayValue == [], "\(reply.serialized)")
            let outgoing = try Self.frames("xf-out")
            let overlap = 2 * Self.rate
            let fadeStart = outgoing.count / 2 - overlap
            // The file, the overlap, then a second of the stream alone.
            try waitUntil(timeout: 30) {
                (try? FileManager.default.attributesOfItem(atPath: daemon.capturePath)[.size] as? Int)
                    .map { $0 >= (fadeStart + overlap + Self.rate) * 4 } ?? false
            }
            _ = try daemon.call("stop")
            let captured = Self.frames(of: try daemon.captured())
            let difference = Self.firstDifference(captured.prefix(2 * fadeStart), outgoing.prefix(2 * fadeStart))
            #expect(difference == nil, "the file up to the fade: \(difference ?? "")")
            // What the stream contributed, where its curve is at least 0.5: its decoded samples
            // from the stream's first frame (mpg123 decodes the same bytes; the live decoder
            // keeps the encoder's delay, which the search allows for).
            let stream = try Self.frames("long")
            let (from, to) = (overlap / 3, overlap)
            var contributed: [Double] = []
            for frame in from..<to {
                let (out, into) = CrossfadeCurve.gains(atFrame: frame, of: overlap)
                for channel in 0..<2 {
                    let index = 2 * (fadeStart + frame) + channel
                    contributed.append((Double(captured[index]) - Double(outgoing[index]) * out) / into)
                }
            }
            func distance(_ offset: Int, samples: Int) -> Double {
                zip(contributed.prefix(samples), stream.dropFirst(2 * (from + offset))).map { abs($0 - Double($1)) }
                    .max() ?? .infinity
            }
            let offset = (-3000...3000).min { distance($0, samples: 256) < distance($1, samples: 256) }!
            let worst = distance(offset, samples: contributed.count)
            #expect(worst <= 6, "the stream's samples in the sum within \(worst) LSB (offset \(offset) frames)")
        }

        @Test(
            "At rate 1.5 a 3 s crossfade lasts 3 s of listening: the capture is the sum less 4.5 media seconds, stretched"
        )
        func fadeInListeningTime() throws {
            let daemon = try DaemonProcess()
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.call("setCrossfade", [("seconds", .number(3)), ("mode", .string("always"))])
            _ = try daemon.call("changePlaybackRate", [("rate", .number(1.5))])
            _ = try daemon.enqueue(["xf-out.flac", "xf-in.flac"], play: true)
            try events.waitForState("stopped")
            // 12 media seconds less 4.5 of overlap, at 1.5: 5 s (8 s gapless; 6 s for a fade of
            // 3 media seconds). The stretcher's output length is its input's over the rate to
            // a few milliseconds.
            let seconds = Double(try daemon.captured().count) / 4 / Double(Self.rate)
            #expect(abs(seconds - 5) < 0.05, "\(seconds) s captured")
        }

        @Test("The crossfade a client set survives a restart, over the configuration's")
        func survivesRestart() throws {
            let state = TestEnvironment.makeTemporaryDirectory()
            let daemon = try DaemonProcess(arguments: ["--crossfade", "2"], environment: ["XDG_STATE_HOME": state])
            #expect(try daemon.nowPlaying()["crossfade"]?["seconds"]?.numberValue == 2, "the configuration's")
            _ = try daemon.call("setCrossfade", [("seconds", .number(6.5)), ("mode", .string("always"))])
            #expect(daemon.terminate() == 0)
            let restarted = try DaemonProcess(arguments: ["--crossfade", "2"], environment: ["XDG_STATE_HOME": state])
            let crossfade = try restarted.nowPlaying()["crossfade"]
            #expect(crossfade?["seconds"]?.numberValue == 6.5 && crossfade?["mode"]?.stringValue == "always")
        }

        @Test("setCrossfade refuses what is out of range and says why")
        func badArgumentsAreRefused() throws {
            let daemon = try DaemonProcess()
            for arguments: [(String, JSONValue)] in [
                [("seconds", .number(13))], [("seconds", .number(-1))], [("mode", .string("sometimes"))], [],
            ] {
                let reply = try daemon.call("setCrossfade", arguments)
                #expect(reply["status"]?.stringValue == "badRequest", "\(arguments): \(reply)")
                #expect(reply["message"]?.stringValue?.isEmpty == false)
            }
            #expect(try daemon.nowPlaying()["crossfade"]?["seconds"]?.numberValue == 0)
        }

        /// `captured` (stereo frames, interleaved) is `outgoing` up to `fadeStart`, then
        /// `overlap` frames of the curves' sum of `outgoing` from `fadeStart` and `incoming` from
        /// `soundStart`, then `incoming` on; each sample within `tolerance` in the overlap and
        /// exact elsewhere.
        static func expectCrossfade(
            _ captured: [Int16], outgoing: [Int16], fadeStart: Int, incoming: [Int16], soundStart: Int, overlap: Int,
            outgoingWritten: Int? = nil
        ) throws {
            let before = 2 * (outgoingWritten ?? fadeStart)
            let difference = firstDifference(captured.prefix(before), outgoing.prefix(before))
            #expect(difference == nil, "before the overlap: \(difference ?? "")")
            var worst = (difference: 0, sample: 0)
            for frame in 0..<overlap {
                let (out, into) = CrossfadeCurve.gains(atFrame: frame, of: overlap)
                for channel in 0..<2 {
                    let a = Double(outgoing[2 * (fadeStart + frame) + channel])
                    let b = Double(incoming[2 * (soundStart + frame) + channel])
                    let expected = Int((a * out + b * into).rounded())
                    let difference = abs(Int(captured[before + 2 * frame + channel]) - expected)
                    if difference > worst.difference { worst = (difference, 2 * frame + channel) }
                }
            }
            #expect(worst.difference <= tolerance, "overlap sample \(worst.sample) is \(worst.difference) LSB off")
            let after = firstDifference(
                captured.dropFirst(before + 2 * overlap), incoming.dropFirst(2 * (soundStart + overlap)))
            #expect(after == nil, "after the overlap: \(after ?? "")")
        }

        /// The frame of `outgoing` (at most `end`) that `samples` (the start of a fade, where the
        /// outgoing item is nearly alone) match best.
        /// (The fade's first frames are the outgoing item's within a few LSB: only frames whose
        /// first samples match that closely are compared further.)
        static func bestStart(of samples: ArraySlice<Int16>, in outgoing: [Int16], upTo end: Int) -> Int {
            let first = samples.prefix(4).map(Int.init)
            let candidates = (max(0, end - 2 * rate)...end).filter { frame in
                first.indices.allSatisfy {
                    2 * frame + $0 < outgoing.count && abs(first[$0] - Int(outgoing[2 * frame + $0])) <= 3
                }
            }
            return candidates.min { distance(samples, outgoing, at: $0) < distance(samples, outgoing, at: $1) } ?? 0
        }

        private static func distance(_ samples: ArraySlice<Int16>, _ outgoing: [Int16], at frame: Int) -> Int {
            var sum = 0
            for (index, sample) in samples.enumerated() where 2 * frame + index < outgoing.count {
                sum += abs(Int(sample) - Int(outgoing[2 * frame + index]))
            }
            return sum
        }

        /// Where two runs of samples first differ, or how their lengths do; nil when equal.
        static func firstDifference(_ actual: ArraySlice<Int16>, _ expected: ArraySlice<Int16>) -> String? {
            if actual.elementsEqual(expected) { return nil }
            let index = (0..<min(actual.count, expected.count)).first {
                actual[actual.startIndex + $0] != expected[expected.startIndex + $0]
            }
            return
                "\(actual.count) samples against \(expected.count), first difference at \(index.map(String.init) ?? "the shorter one's end")"
        }

        static func frames(_ name: String) throws -> [Int16] { frames(of: try TestEnvironment.reference(name)) }

        static func frames(of data: Data) -> [Int16] {
            data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
    }
}
