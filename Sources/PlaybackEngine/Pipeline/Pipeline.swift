import Synchronization
import SystemSupport

/// One run of playback: a decoder thread and an output thread around a ring, from a start
/// item and frame until the queue ends, the format changes, the device fails or the event
/// loop halts it. Seek and skip halt the pipeline at the exact played frame and start a new
/// one there; the device stays open in between. A pause on a device held open suspends it in
/// place (`suspend`), and play resumes it.
final class Pipeline: @unchecked Sendable {
    let format: AudioFormat
    /// Media seconds per second heard (`PlaybackEngine.playbackRate` when it started).
    let rate: Double
    let segments = SegmentLog()
    let state = PipelineState()
    let clock = PlaybackClock()
    let upcoming: UpcomingItems
    /// The decoder in use when the decoder thread stopped (valid after `join`).
    let parking = ParkedDecoder()
    private let outputWake = EventSignal()
    /// Signalled when the output thread has published where it stopped (`halt` waits for it).
    private let stopped = EventSignal()
    private let decoderWake = EventSignal()
    private var decoderThread: NamedThread?
    private var outputThread: NamedThread?
    /// The device's opening the output thread waits for, held here so that it is released
    /// with the pipeline, not at the output thread's end (its first release instantiates
    /// metadata: an allocation there).
    private var opening: DeviceWork?
    /// Whether the output thread got `SCHED_FIFO`.
    private(set) var isRealtime = false
    /// The ring and the buffers the threads work in (`PipelineBuffers` of the format's sample
    /// type), kept until the pipeline goes.
    private var buffers: AnyObject?
    /// What the output thread processes before it writes, at most: a quarter second, the ALSA
    /// sink's period, so that the device takes a processed block in one write as it takes the
    /// ring's samples when nothing is processed (a write a period costs a sound server's plugin
    /// the least CPU).
    static let processMilliseconds = 250
    /// Frames the sound chain works on at a time (its scratch space; about 90 ms at 44.1 kHz).
    static let chainFrames = 4096
    /// Frames decoded at a time for the stretcher (about 23 ms at 44.1 kHz).
    static let stretchFrames = 1024

    init(
        first item: EngineItem, decoder: any AudioDecoder, startFrame: Int, seeks: Bool,
        upcoming: [EngineItem], heardAs incoming: EngineItem? = nil, sink: any AudioSink,
        openItem: @escaping ItemOpener,
        events: EventSignal, realtime: Bool, sound: SoundControl, rate: Double, fadesIn: Bool,
        opening: DeviceOpening?
    ) {
        format = decoder.format
        if opening?.format == nil { state.deviceReady.store(true, ordering: .releasing) }
        // Without a stretcher (Sonic out of memory) it plays at 1, and says so through `rate`.
        let stretcher =
            rate == 1 ? nil : TimeStretcher(rate: rate, sampleRate: format.sampleRate, channels: format.channels)
        self.rate = stretcher?.rate ?? 1
        self.upcoming = UpcomingItems(upcoming)
        // A skip's fade out of `item` is heard as `incoming` from its first sample (the
        // segment is empty: the whole of `item` goes into the overlap, `incoming`'s segment).
        segments.append(
            incoming.map { .init(itemID: $0.id, startSample: 0, firstFrame: $0.startFrame, gain: 1) }
                ?? .init(
                    itemID: item.id, startSample: 0, firstFrame: startFrame, gain: item.gain, mark: item.mark,
                    endFrame: item.endFrame))
        let start = Start(
            item: item, decoder: decoder, startFrame: startFrame, seeks: seeks, sink: sink, openItem: openItem,
            events: events, realtime: realtime, sound: sound, stretcher: stretcher, fadesIn: fadesIn,
            opening: opening)
        switch format.sampleFormat {
        case .s16: run(start, as: Int16.self)
        case .s32: run(start, as: Int32.self)
        }
    }

    /// What `init` starts the threads with.
    private struct Start {
        let item: EngineItem
        let decoder: any AudioDecoder
        let startFrame: Int
        let seeks: Bool
        let sink: any AudioSink
        let openItem: ItemOpener
        let events: EventSignal
        let realtime: Bool
        let sound: SoundControl
        let stretcher: TimeStretcher?
        let fadesIn: Bool
        let opening: DeviceOpening?
    }

    /// Starts the decoder and output threads on a ring of `Sample`s.
    private func run<Sample: PCMSample>(_ start: Start, as _: Sample.Type) {
        let sink = start.sink
        // A device that can replace what it holds gets the ring's last samples kept behind the
        // read position, to process them again (`RewriteHistory`). One still to be opened is
        // asked whether it may (the output thread drops the history if it turns out not to).
        let rewrites = start.opening == nil ? sink.canRewrite : sink.mayRewrite
        let opening = start.opening.flatMap { opening in
            opening.format.map { DeviceWork.opening(sink, $0, after: opening.after) } ?? opening.after
        }
        self.opening = opening
        let reserveFrames = max(
            rewrites ? Self.rewriteReserveFrames(format.sampleRate, sink) : 0,
            Self.pauseReserveFrames(format.sampleRate, sink))
        let buffers = PipelineBuffers<Sample>(
            format: format, reserve: reserveFrames * format.channels, stretches: start.stretcher != nil)
        self.buffers = buffers
        let decoding = DecoderLoop(
            ring: buffers.ring, segments: segments, upcoming: upcoming, state: state,
            openItem: start.openItem, outputWake: outputWake, decoderWake: decoderWake, parking: parking,
            stretcher: start.stretcher, stretchInput: buffers.stretchInput)
        let soundScratch = SoundScratch(frames: Self.chainFrames)
        let output = OutputLoop(
            sink: sink, channels: format.channels, sampleRate: format.sampleRate, ring: buffers.ring,
            segments: segments, state: state, clock: clock, outputWake: outputWake,
            decoderWake: decoderWake, events: start.events, fadeBuffer: buffers.fade, sound: start.sound,
            processBuffer: buffers.process, soundScratch: soundScratch,
            fadeInFrames: start.fadesIn ? format.sampleRate * Self.fadeInMilliseconds / 1000 : 0,
            history: rewrites
                ? RewriteHistory(
                    capacity: Self.rewriteReserveFrames(format.sampleRate, sink) / RewriteHistory.blockFrames + 8,
                    chain: SoundChain(channels: format.channels, sampleRate: format.sampleRate, scratch: soundScratch))
                : nil,
            opening: opening, opens: start.opening?.format != nil, stopped: stopped)
        output.prepareFade()
        let decoderWork = UncheckedSendable((decoding, start.decoder))
        let outputWork = UncheckedSendable(output)
        let (itemID, seekFrame) = (start.item.id, start.seeks ? start.startFrame : nil)
        let bounds = DecoderLoop<Sample>.ItemBounds(item: start.item, frame: start.startFrame)
        decoderThread = NamedThread(name: "pbd-decoder") {
            decoderWork.value.0.run(first: decoderWork.value.1, itemID: itemID, seekingTo: seekFrame, bounds: bounds)
        }
        let outputThread = NamedThread(name: "pbd-output") { outputWork.value.run() }
        isRealtime = start.realtime && outputThread.requestRealtime(priority: 20)
        self.outputThread = outputThread
    }

    /// The longest a halt waits for the output thread to publish where it stopped: far beyond
    /// a write of one period, or a busy machine's delay in waking the thread (the position it
    /// publishes is exact; the reading before it is behind by what played since).
    static let stopWaitMilliseconds = 1000
    /// The longest `fadeOut()` and `splice()` wait for the output thread to end: the device's
    /// buffer (at most 1.5 s, through ALSA's pulse plugin) and the fade, with room. Past it the
    /// thread is inside a write the device does not take, and the halt does not wait for it.
    static let endOutputWaitMilliseconds = 2000
    /// How long the fade at the end of `fadeOut()` lasts.
    static let fadeMilliseconds = 50
    /// How long a pipeline started with `fadesIn` takes to rise from silence.
    static let fadeInMilliseconds = 5
    /// How much played audio the ring keeps for a device that can replace what it holds, and
    /// how far back the chain's history goes: a quarter more than the device's buffer
    /// (`AudioSink.rewindableMicroseconds`). About 150 KB of history at 44.1 kHz for 1 s.
    static func rewriteReserveFrames(_ sampleRate: Int, _ sink: any AudioSink) -> Int {
        sampleRate * sink.rewindableMicroseconds * 5 / 4 / 1_000_000
    }

    /// How much played audio the ring keeps for a pause in place: the device's buffer
    /// (`AudioSink.replayedAfterPauseMicroseconds`), rounded up to a frame.
    static func pauseReserveFrames(_ sampleRate: Int, _ sink: any AudioSink) -> Int {
        (sampleRate * sink.replayedAfterPauseMicroseconds + 999_999) / 1_000_000
    }

    /// Pauses in place: the output thread pauses the device where it plays, keeping what it
    /// holds (or, on a device that cannot, drops it and steps the ring back to the sample heard
    /// last) and waits; the decoder thread fills the ring and waits. Neither wakes until
    /// `resume` or a halt, and the position is the sample heard last. Waits for the output
    /// thread's answer as `halt` does. Whether it paused: when not (a device that cannot pause
    /// holds audio of an item before the one written, or more than the ring keeps; the device
    /// is still opening; the queue's end is written), the pipeline plays on as it did, for the
    /// caller to halt; when the output thread did not answer in time (inside a write the
    /// device holds), the halt need not wait for it again.
    func suspend() -> SuspendAnswer {
        let state = state
        guard state.deviceReady.load(ordering: .acquiring), state.outcomeValue == .running else { return .declined }
        state.suspension.store(PipelineState.Suspension.requested.rawValue, ordering: .releasing)
        outputWake.signal()
        waitForOutput(atMost: Self.stopWaitMilliseconds) {
            state.suspensionValue != .requested || state.outcomeValue != .running
        }
        // Unanswered (inside a write the device holds, or ended): withdrawn, unless answered meanwhile.
        let (withdrawn, answer) = state.suspension.compareExchange(
            expected: PipelineState.Suspension.requested.rawValue, desired: PipelineState.Suspension.none.rawValue,
            ordering: .acquiringAndReleasing)
        if withdrawn { return .unanswered }
        if answer == PipelineState.Suspension.suspended.rawValue { return .paused }
        state.suspension.store(PipelineState.Suspension.none.rawValue, ordering: .releasing)
        return .declined
    }

    /// What `suspend` came to.
    enum SuspendAnswer {
        /// Paused in place.
        case paused
        /// Playing on: the output thread could not pause in place.
        case declined
        /// Playing on: the output thread did not answer within `stopWaitMilliseconds`.
        case unanswered
    }

    /// Plays on from the sample heard when `suspend` paused: the device from what it kept, or
    /// the ring's audio written again; nothing is decoded or sought anew.
    func resume() {
        state.suspension.store(PipelineState.Suspension.none.rawValue, ordering: .releasing)
        outputWake.signal()
    }

    /// Ends without a click: the output thread writes a linear fade of the next
    /// `fadeMilliseconds` of audio after what the device holds, drains the device, and ends.
    /// Blocks until then (the device's buffer plus the fade; `endOutputWaitMilliseconds` at most).
    func fadeOut() -> Ending { endOutput(on: state.fadeRequested) }

    /// Ends where the next pipeline can take over without a cut, on a device that can replace
    /// what it holds: the output thread takes the device's buffer back to a few milliseconds
    /// ahead of what is heard, writes a 5 ms fade-out there and ends, leaving the device
    /// playing; the next pipeline's audio follows the fade. Its position is the frame after the
    /// fade. Blocks until the output thread has ended (a few milliseconds).
    func splice() -> Ending { endOutput(on: state.spliceRequested) }

    /// Raises `request` for the output thread, waits for it to end (it writes its last audio
    /// itself), then stops the decoder. A halt while the device is still opening, and after
    /// `endOutputWaitMilliseconds`: a device that takes no more audio (a FIFO whose reader
    /// stopped reading) would otherwise hold the caller, and SIGTERM, until it does.
    private func endOutput(on request: borrowing Atomic<Bool>) -> Ending {
        guard state.deviceReady.load(ordering: .acquiring) else { return halt() }
        request.store(true, ordering: .releasing)
        outputWake.signal()
        let state = state
        waitForOutput(atMost: Self.endOutputWaitMilliseconds) { state.outcomeValue != .running }
        // Still running: inside a write the device does not take; the halt leaves it to end.
        if state.outcomeValue == .running { return halt(waitingMilliseconds: 0) }
        outputThread?.join()
        outputThread = nil
        return halt()
    }

    /// Lets go of the pipeline before, once this one's output thread has waited for it: each
    /// pipeline holds the device work it waited for, which holds the pipeline before it, so
    /// without this every seek or skip on an open device would keep one more ring. Event loop
    /// only.
    func releasePipelineBefore() { opening?.releaseKeptIfJoined() }

    /// Waits on `stopped`, in 10 ms steps, until `done` or for `milliseconds` at most.
    private func waitForOutput(atMost milliseconds: Int, until done: () -> Bool) {
        var waited = 0
        while !done() && waited < milliseconds {
            stopped.wait(timeoutMilliseconds: 10)
            waited += 10
        }
    }

    /// Wakes the output thread if it waits for the device, so that it looks at new settings.
    func wakeOutput() { outputWake.signal() }

    /// How a halt left the output thread.
    enum Ending {
        /// Both threads have ended.
        case joined
        /// The output thread published where it stopped (or is still inside a write the device
        /// holds, `stopWaitMilliseconds`) and drops the device's buffer on its own (through a
        /// sound server's plugin, a round trip); the device stays open.
        case dropping(DeviceWork)
        /// The output thread was still opening the device: it closes it again and ends by itself.
        case abandoned(DeviceWork)
    }

    /// Stops both threads. Waits for the decoder thread, and for the output thread only until
    /// it has published where it stopped: it drops the device's buffer (or, still opening the
    /// device, closes it again) and ends by itself, and the device's next user waits for it.
    /// A write the device holds (a FIFO nobody reads, behind ALSA's file plugin) is waited
    /// for `stopWaitMilliseconds` at most: the position is then the output thread's last
    /// reading, from before that write, which is what was heard. Idempotent.
    func halt(waitingMilliseconds: Int = stopWaitMilliseconds) -> Ending {
        let abandons = !state.deviceReady.load(ordering: .acquiring)
        if abandons { state.closesDevice.store(true, ordering: .releasing) }
        state.haltRequested.store(true, ordering: .releasing)
        outputWake.signal()
        decoderWake.signal()
        guard let outputThread else {
            join()
            return .joined
        }
        self.outputThread = nil
        join()
        let state = state
        let work = DeviceWork.outputThread(outputThread, keeping: self) { state.outcomeValue != .running }
        if abandons { return .abandoned(work) }
        waitForOutput(atMost: waitingMilliseconds) { state.stopPublished.load(ordering: .acquiring) }
        return .dropping(work)
    }

    /// Waits for both threads (after the output thread reported an outcome).
    func join() {
        if state.outcomeValue != .running || state.isHaltRequested {
            // The output thread is done; make sure the decoder is not waiting for space.
            state.haltRequested.store(true, ordering: .releasing)
            decoderWake.signal()
        }
        decoderThread?.join()
        outputThread?.join()
        (decoderThread, outputThread) = (nil, nil)
    }

    /// Maps a played sample index to (segment, item, frame within the item): at a rate other
    /// than 1, output frames scaled by the rate to media frames.
    /// In a gap the position holds where the item's samples ended.
    func itemPosition(atSample sample: Int) -> (index: Int, segment: SegmentLog.Segment, frame: Int)? {
        guard let (index, segment) = segments.segment(containing: sample) else { return nil }
        guard !segment.isGap else { return (index, segment, segment.firstFrame) }
        let outputFrames = (sample - segment.startSample) / format.channels
        let mediaFrames = rate == 1 ? outputFrames : Int((Double(outputFrames) * rate).rounded(.down))
        return (index, segment, min(segment.firstFrame + mediaFrames, segment.endFrame ?? .max))
    }
}
