import Foundation
import PlaybackModel
import Synchronization
import SystemSupport
import Testing

@testable import PlaybackEngine

/// The engine in-process, with real libmpg123 and a real ALSA file device.
@Suite(.serialized) final class PlaybackEngineTests {
    let capture: String

    init() {
        capture = NSTemporaryDirectory() + "playbackd-engine-\(getpid())-\(UUID().uuidString).raw"
        Fixtures.useTestALSA(capture: capture)
    }

    deinit { try? FileManager.default.removeItem(atPath: capture) }

    private func makeEngine() -> PlaybackEngine {
        PlaybackEngine(
            sink: ALSASink(deviceName: "playbackd_capture"),
            openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path) })
    }

    /// Waits for the engine's events until the pipeline finished, and for the device to be
    /// closed (on a thread of its own: then the capture file is complete).
    private func waitUntilFinished(_ engine: PlaybackEngine) -> [EngineEvent] {
        var seen: [EngineEvent] = []
        while true {
            var pfd = pollfd(fd: engine.events.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20_000) > 0 else { return seen }
            let events = engine.takeEvents()
            seen += events
            if events.contains(where: { if case .finished = $0 { true } else { false } }) {
                #expect(engine.waitForDevice(timeout: 20), "the device closed")
                return seen
            }
        }
    }

    @Test("a skip's fade: the item left from the frame given, fading out over the next item's first second")
    func skipFade() throws {
        let engine = makeEngine()
        let (heard, overlap) = (20_000, 44_100)
        let outgoing = EngineItem(id: 1, path: Fixtures.path("long.mp3"), startFrame: heard, endFrame: heard + overlap)
        let incoming = EngineItem(id: 2, path: Fixtures.path("one.mp3"))
        #expect(try engine.start(incoming, atFrame: 0, upcoming: [], fadingFrom: outgoing) == 0)
        // Heard as the incoming item, at its start: frame 0 until the device plays, which this
        // unpaced device may already have done on a busy machine.
        let position = engine.currentPosition()
        #expect(
            position?.itemID == 2 && (position?.frame ?? .max) < overlap,
            "heard as the incoming item: \(String(describing: position))")
        _ = waitUntilFinished(engine)
        let samples = { (data: Data) in data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }
        let captured = samples(try Data(contentsOf: URL(fileURLWithPath: capture)))
        let (a, b) = (samples(try Fixtures.reference("long")), samples(try Fixtures.reference("one")))
        #expect(captured.count == b.count, "the incoming item's length: the fade overlaps it")
        var worst = 0
        for index in 0..<(2 * overlap) {
            let (out, into) = CrossfadeCurve.gains(atFrame: index / 2, of: overlap)
            let expected = Double(a[2 * heard + index]) * out + Double(b[index]) * into
            worst = max(worst, abs(Int(captured[index]) - Int(expected.rounded())))
        }
        #expect(worst <= 2, "the overlap within \(worst) LSB")
        #expect(captured.dropFirst(2 * overlap).elementsEqual(b.dropFirst(2 * overlap)), "then the item itself")
    }

    @Test(
        "a halted pipeline is let go once the next one has waited for it: starts on an open device keep no chain of pipelines"
    )
    func haltedPipelinesAreLetGo() throws {
        let engine = makeEngine()
        let item = EngineItem(id: 1, path: Fixtures.path("long.mp3"))
        #expect(try engine.start(item, atFrame: 0, upcoming: []) == 0)
        weak var first = engine.pipeline
        // Halted while the device opens, a pipeline is abandoned and holds nothing: wait for it.
        for _ in 0..<10_000 where first?.state.deviceReady.load(ordering: .acquiring) == false { usleep(1_000) }
        #expect(first?.state.deviceReady.load(ordering: .acquiring) == true)
        for second in 1...10 {
            engine.halt()
            #expect(try engine.start(item, atFrame: second * 44_100, upcoming: []) == second * 44_100)
        }
        engine.halt()
        #expect(first == nil, "ten starts later, the first pipeline is still held")
        engine.releaseDevice()
        #expect(engine.waitForDevice(timeout: 20), "the device closed")
    }

    @Test("a queue plays gaplessly; item starts and the end are reported")
    func queueIsGapless() throws {
        let engine = makeEngine()
        let items = ["one", "two", "three"].enumerated().map {
            EngineItem(id: UInt64($0.offset + 1), path: Fixtures.path($0.element + ".mp3"))
        }
        #expect(try engine.start(items[0], atFrame: 0, upcoming: Array(items.dropFirst())) == 0)
        let events = waitUntilFinished(engine)
        let started = events.compactMap { if case .itemStarted(let id, _, _) = $0 { id } else { nil } }
        // Item starts are coalesced (the latest one is reported), so on this unpaced device
        // item 2's may be folded into item 3's; the last reported is always the last item.
        #expect(started.last == 3)
        #expect(started == started.sorted() && started.allSatisfy { [2, 3].contains($0) })
        #expect(
            events.last
                == .finished(last: EnginePosition(itemID: 3, frame: 85_113, sampleRate: 44_100, segment: 2), next: nil))
        #expect(!engine.isDeviceOpen, "the device is closed at the end of the queue")
        let expected = try ["one", "two", "three"].map(Fixtures.reference).reduce(Data(), +)
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == expected)
    }

    @Test("through the real ALSA file device: a flat equalizer is byte-identical, a band's cut is its cookbook gain")
    func soundChainOnTheDevice() throws {
        let engine = makeEngine()
        let item = EngineItem(id: 1, path: Fixtures.path("long.mp3"))
        engine.setSound(SoundSettings(equalizer: Equalizer(isEnabled: true), volume: 1))
        _ = try engine.start(item, atFrame: 0, upcoming: [])
        _ = waitUntilFinished(engine)
        let reference = try Fixtures.reference("long")
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == reference, "flat and enabled: bit-exact")

        let band = EQBand(type: .parametric, frequency: 392, bandwidth: 0.3, gain: -6)
        engine.setSound(SoundSettings(equalizer: Equalizer(isEnabled: true, bands: [band]), volume: 0.5))
        try? FileManager.default.removeItem(atPath: capture)
        _ = try engine.start(item, atFrame: 0, upcoming: [])
        _ = waitUntilFinished(engine)
        let processed = try Data(contentsOf: URL(fileURLWithPath: capture))
        #expect(processed.count == reference.count, "every frame went through")
        func samples(_ data: Data) -> [Int16] {
            data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(44_100 * 2 * 6)) }
        }
        let (input, output) = (samples(reference), samples(processed))
        // The fixture has 261.63 Hz on the left channel and 392 Hz on the right.
        for (frequency, channel, expectedDB) in [
            (392.0, 1, -6 + 20 * log10(0.5)),
            (
                261.63, 0,
                20 * log10(BiquadCoefficients(band, sampleRate: 44_100).magnitude(at: 261.63, sampleRate: 44_100) * 0.5)
            ),
        ] {
            let gain =
                20
                * log10(
                    SoundChainTests.amplitude(output, frequency, sampleRate: 44_100, from: 44_100, channel: channel)
                        / SoundChainTests.amplitude(
                            input, frequency, sampleRate: 44_100, from: 44_100, channel: channel))
            #expect(abs(gain - expectedDB) < 0.1, "\(frequency) Hz: \(gain) dB, expected \(expectedDB)")
        }
    }

    @Test("an upcoming item that cannot be opened is passed over, reported, and the next one plays on")
    func unopenableItemIsReported() throws {
        let engine = makeEngine()
        let items = [
            EngineItem(id: 1, path: Fixtures.path("one.mp3")), EngineItem(id: 2, path: "/nonexistent/gone.mp3"),
            EngineItem(id: 3, path: Fixtures.path("three.mp3")),
        ]
        _ = try engine.start(items[0], atFrame: 0, upcoming: Array(items.dropFirst()))
        let events = waitUntilFinished(engine)
        #expect(events.contains(.itemsSkipped(count: 1)), "\(events)")
        #expect(
            !events.contains { if case .xrunsRecovered = $0 { true } else { false } }, "the file device never underruns"
        )
        let expected = try ["one", "three"].map(Fixtures.reference).reduce(Data(), +)
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == expected)
    }

    @Test("an item whose decoding fails part-way plays as far as it decoded, is reported, and the next plays")
    func decodeFailureIsReported() throws {
        let engine = PlaybackEngine(
            sink: ALSASink(deviceName: "playbackd_capture"),
            openDecoder: { request throws(DecoderError) -> any AudioDecoder in
                let path = request.path
                guard path.hasSuffix("#broken") else { return try MPG123Decoder(path: path) }
                return FailingDecoder(try MPG123Decoder(path: String(path.dropLast(7))), failAfterFrames: 44_100)
            })
        let broken = EngineItem(id: 1, path: Fixtures.path("long.mp3") + "#broken")
        _ = try engine.start(broken, atFrame: 0, upcoming: [EngineItem(id: 2, path: Fixtures.path("one.mp3"))])
        let events = waitUntilFinished(engine)
        #expect(
            events.contains { if case .itemsCutShort(count: 1, reason: .some) = $0 { true } else { false } },
            "\(events)")
        let captured = try Data(contentsOf: URL(fileURLWithPath: capture))
        let one = try Fixtures.reference("one")
        let long = try Fixtures.reference("long")
        #expect(captured.count > one.count + 44_100 * 4 && captured.count < one.count + long.count / 2)
        #expect(captured.suffix(one.count) == one, "the next item plays whole after the cut")
        #expect(captured.prefix(44_100 * 4) == long.prefix(44_100 * 4), "the broken item plays what it decoded")
    }

    /// Plays `item` and stops it with `stop` up to five times, at points the test chooses: each
    /// once the played position has passed the last stop by 250,000 frames (of 1,764,000), so
    /// no two land on one frame, and while it is before `until` (a stop past it only starts
    /// again); then starts it again where the stop said it was heard. `stopped` sees each stop's position and the pipeline stopped,
    /// `restarted` the pipeline stopped again, running. The file device takes audio as fast as
    /// it comes: a test thread the machine keeps waiting may find the item played out, which
    /// ends the stops. Returns how many there were.
    private func stopAndRestart(
        _ engine: PlaybackEngine, _ item: EngineItem, until limit: Int,
        stop: (PlaybackEngine) -> EnginePosition?, stopped: (EnginePosition, Pipeline) -> Void = { _, _ in },
        restarted: (Pipeline) -> Void = { _ in }
    ) throws -> Int {
        var frame = try engine.start(item, atFrame: 0, upcoming: [])
        var stops = 0
        while stops < 5 && frame + 250_000 < limit {
            let target = frame + 250_000
            while (engine.currentPosition()?.frame ?? .max) < target { sched_yield() }
            let running = try #require(engine.pipeline)
            guard let position = stop(engine) else { break }
            guard position.frame < limit else {
                _ = try engine.start(item, atFrame: position.frame, upcoming: [])
                break
            }
            stops += 1
            #expect(position.itemID == item.id)
            #expect(position.frame >= target, "stopped at \(position.frame), before \(target)")
            stopped(position, running)
            frame = try engine.start(item, atFrame: position.frame, upcoming: [])
            #expect(frame == position.frame)
            restarted(running)
        }
        #expect(stops > 0, "at least one stop came before the end")
        return stops
    }

    @Test("halting anywhere and restarting at the returned position loses and repeats nothing")
    func haltAndResumeIsExact() throws {
        let engine = makeEngine()
        _ = try stopAndRestart(
            engine, EngineItem(id: 1, path: Fixtures.path("long.mp3")), until: 1_764_000, stop: { $0.halt() },
            stopped: { _, _ in #expect(engine.isDeviceOpen, "halt keeps the device") })
        _ = waitUntilFinished(engine)
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == Fixtures.reference("long"))
    }

    @Test(
        "a pause on a device kept open stops in place and play goes on: the same pipeline, exact",
        arguments: [true, false])
    func pauseInPlaceIsExact(deviceKeepsBuffer: Bool) throws {
        let sink = PauseCountingSink(ALSASink(deviceName: "playbackd_capture"), refusesPause: !deviceKeepsBuffer)
        let engine = PlaybackEngine(
            sink: sink, openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path) })
        let item = EngineItem(id: 1, path: Fixtures.path("long.mp3"))
        // Each pause before the item's last 4 s: the decoder has not reached its end, and the
        // output has more to write (at the end both halt).
        let pauses = try stopAndRestart(
            engine, item, until: 1_590_000, stop: { $0.pause() },
            stopped: { _, running in
                #expect(engine.suspended === running && !engine.isRunning, "paused in place")
                #expect(engine.holdsDecoder(of: 1) && engine.isDeviceOpen)
            },
            restarted: { running in
                #expect(engine.pipeline === running && engine.suspended == nil, "resumed, not started anew")
            })
        // A pause past the limit may have been one more.
        let devicePauses = sink.devicePauses.load(ordering: .relaxed)
        #expect(
            deviceKeepsBuffer ? (pauses...pauses + 1).contains(devicePauses) : devicePauses == 0,
            "the device kept its buffer (\(devicePauses) times), or the ring was written again")
        // A halt ends the pipeline paused in place, at the position the pause returned.
        if let paused = engine.pipeline, let position = engine.pause(), engine.suspended === paused {
            #expect(engine.halt() == position && engine.suspended == nil && !engine.holdsDecoder(of: 2))
            _ = try engine.start(item, atFrame: position.frame, upcoming: [])
            #expect(engine.pipeline !== paused, "started anew")
        }
        _ = waitUntilFinished(engine)
        #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == Fixtures.reference("long"))
    }

    @Test("a start that fades in rises from silence over 5 ms, then every sample is the decoder's")
    func fadeInThenBitExact() throws {
        let engine = makeEngine()
        _ = try engine.start(
            EngineItem(id: 1, path: Fixtures.path("one.mp3")), atFrame: 0, upcoming: [], fadingIn: true)
        _ = waitUntilFinished(engine)
        let reference = try Fixtures.reference("one")
        let captured = try Data(contentsOf: URL(fileURLWithPath: capture))
        #expect(captured.count == reference.count)
        let fadeFrames = 44_100 * 5 / 1000
        let (input, output) = (samples(reference), samples(captured))
        for frame in [0, 1, fadeFrames / 2, fadeFrames - 1] {
            let expected = Int16(Int32(input[2 * frame]) * Int32(frame) / Int32(fadeFrames))
            #expect(output[2 * frame] == expected, "frame \(frame)")
        }
        #expect(output[(2 * fadeFrames)...] == input[(2 * fadeFrames)...], "after the fade, bit for bit")
    }

    @Test("at 1.5x three items play through one stretcher: a third shorter, and positions in media frames")
    func stretchedQueue() throws {
        let engine = makeEngine()
        engine.playbackRate = 1.5
        let items = ["one", "two", "three"].enumerated().map {
            EngineItem(id: UInt64($0.offset + 1), path: Fixtures.path($0.element + ".mp3"))
        }
        _ = try engine.start(items[0], atFrame: 0, upcoming: Array(items.dropFirst()))
        #expect(engine.runningRate == 1.5)
        let events = waitUntilFinished(engine)
        let references = try ["one", "two", "three"].map(Fixtures.reference)
        let mediaFrames = references.map { $0.count / 4 }
        let captured = try Data(contentsOf: URL(fileURLWithPath: capture))
        let expectedFrames = Double(mediaFrames.reduce(0, +)) / 1.5
        #expect(abs(Double(captured.count / 4) - expectedFrames) <= 1024, "\(captured.count / 4) frames")
        guard case .finished(let last?, nil) = events.last else {
            Issue.record("no end reported: \(events)")
            return
        }
        // The end of the last item, in its own (media) frames, within one stretcher block.
        #expect(last.itemID == 3 && last.segment == 2)
        #expect(abs(last.frame - mediaFrames[2]) <= 1536, "ended at media frame \(last.frame) of \(mediaFrames[2])")
        let pitch = Self.risingCrossings(samples(captured).prefix(2 * 44_100))
        let original = Self.risingCrossings(samples(references[0]).prefix(2 * 44_100))
        // The pitch is kept: a second of output has as many cycles as a second of the item.
        #expect(abs(Double(pitch) / Double(original) - 1) < 0.02, "\(pitch) against \(original) rising crossings")
    }

    private func samples(_ data: Data) -> [Int16] { data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }

    /// Rising zero crossings of the left channel.
    private static func risingCrossings(_ samples: ArraySlice<Int16>) -> Int {
        let left = stride(from: samples.startIndex, to: samples.endIndex, by: 2).map { samples[$0] }
        return zip(left, left.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
    }

    @Test(
        "a missing device is a typed error after the start, not a crash: the start returns at once, the failure follows"
    )
    func missingDevice() throws {
        let engine = PlaybackEngine(
            sink: ALSASink(deviceName: "no_such_device"),
            openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path) })
        #expect(try engine.start(EngineItem(id: 1, path: Fixtures.path("one.mp3")), atFrame: 0, upcoming: []) == 0)
        var failure: EngineEvent?
        while failure == nil {
            var pfd = pollfd(fd: engine.events.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20_000) > 0 else { break }
            failure = engine.takeEvents().first { if case .deviceFailed = $0 { true } else { false } }
        }
        guard case .deviceFailed(let error, let position, let opening) = failure else {
            Issue.record("no failure reported")
            return
        }
        #expect(opening && error.function == "snd_pcm_open", "\(error)")
        #expect(position?.frame == 0 && position?.itemID == 1, "nothing played: the position is the start's")
        #expect(!engine.isRunning && !engine.isDeviceOpen)
    }
}

/// A decoder that fails, as a damaged file does, once it has produced `failAfterFrames`.
private final class FailingDecoder: AudioDecoder {
    private let inner: any AudioDecoder
    private let failAfterFrames: Int
    private var frames = 0

    init(_ inner: any AudioDecoder, failAfterFrames: Int) {
        self.inner = inner
        self.failAfterFrames = failAfterFrames
    }

    var format: AudioFormat { inner.format }
    var frameCount: Int? { inner.frameCount }
    var metadata: TrackMetadata { inner.metadata }

    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        guard frames < failAfterFrames else { throw .decodingFailed("damaged frame (test)") }
        let count = try inner.read(into: buffer)
        frames += count / format.channels
        return count
    }

    func seek(toFrame frame: Int) throws(DecoderError) -> Int { try inner.seek(toFrame: frame) }
    func coverPicture() -> EmbeddedPicture? { nil }
}

/// A real device that counts its pauses in place (`AudioSink.pauseKeepingBuffer`), or refuses
/// them as `dmix` does, which makes a pause drop its buffer and write the ring again.
private final class PauseCountingSink: AudioSink, @unchecked Sendable {
    private let device: ALSASink
    private let refusesPause: Bool
    /// Pauses the device kept its buffer through (output thread).
    let devicePauses = Atomic<Int>(0)

    init(_ device: ALSASink, refusesPause: Bool) {
        self.device = device
        self.refusesPause = refusesPause
    }

    var openFormat: AudioFormat? { device.openFormat }
    var periodFrames: Int { device.periodFrames }
    var deviceName: String { device.deviceName }
    var isServerStream: Bool { device.isServerStream }
    var hardwareDevice: HardwareDevice? { device.hardwareDevice }
    var recoveredXruns: Int { device.recoveredXruns }
    /// The buffer `ALSASink` asks for: what it keeps for a device that cannot pause.
    var replayedAfterPauseMicroseconds: Int {
        refusesPause ? Int(ALSASink.bufferMicroseconds) : device.replayedAfterPauseMicroseconds
    }
    func open(_ format: AudioFormat) throws(SinkError) { try device.open(format) }
    func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int { try device.write(samples) }
    func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool { try device.waitWritable(orWake: wake) }
    func delay() -> Int { device.delay() }
    func drain() { device.drain() }
    func drop() { device.drop() }
    func close() { device.close() }
    func pauseKeepingBuffer(_ paused: Bool) -> Bool {
        guard !refusesPause, device.pauseKeepingBuffer(paused) else { return false }
        if paused { devicePauses.add(1, ordering: .relaxed) }
        return true
    }
}
