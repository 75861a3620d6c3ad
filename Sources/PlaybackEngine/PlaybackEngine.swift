import PlaybackModel
import SystemSupport

/// The event loop's handle on audio: starts a pipeline at an item and frame, halts it at
/// the exact played frame, opens and releases the device, and turns the pipeline's signals
/// into `EngineEvent`s.
///
/// Every method is called from the event loop only. Nothing here waits for the device to open
/// or close: a pipeline's output thread opens it, and a thread of its own closes it
/// (`DeviceWork`), so a reply never waits for a sound server, a snapserver or a FIFO nobody
/// reads; a device that cannot be opened ends the pipeline (`deviceFailed` with `opening`).
/// `halt` joins threads that stop promptly (they wait in `poll` with a wake-up descriptor),
/// except while the last item's tail is being drained.
public final class PlaybackEngine {
    /// Readable when the engine has something to report; add it to the event loop's poll set
    /// and call `takeEvents()`.
    public let events = EventSignal()
    private let sink: any AudioSink
    /// Opens an item's decoder: the factory, told what the queue knows and where titles go.
    private let openItem: ItemOpener
    /// The titles live streams announced since the last `takeEvents`, by URL.
    private let titles = Locked<[String: StreamTitle]>([:])
    private(set) var pipeline: Pipeline?
    /// A pipeline paused in place (`pause`): its threads wait, its ring holds the audio from
    /// the sample heard last on. A `start` at that position resumes it; anything else halts it.
    private(set) var suspended: Pipeline?
    /// Whether the last `start` went on with the pipeline paused in place: its segments (the
    /// passes of repeat-one, an A-B loop's) are numbered on from before the pause.
    public private(set) var lastStartResumed = false
    /// The format the device is open with, or will be once the running pipeline's output
    /// thread has opened it; nil when it is closed or closing.
    private var deviceFormat: AudioFormat?
    /// The device's work still going on (a closing, an abandoned open), which its next user
    /// waits for; nil when there is none (then `deviceFormat` may be set).
    private var deviceWork: DeviceWork?
    /// What the open device turned out to be, as the output thread that opened it left it;
    /// nil until it said so.
    private var openedDevice: OpenedDevice?
    /// The last pipeline's decoder, reused when the same item starts again.
    private var parked: (itemID: UInt64, decoder: any AudioDecoder)?
    /// The sink's xrun count when it was last reported (`takeEvents`); the sink restarts its
    /// count when it opens.
    private var reportedXruns = 0
    /// The latest segment `currentPosition` has placed the current pipeline in: an item change
    /// the event loop may have announced, which the position at a halt never goes back on.
    private var reportedSegment = 0

    private let realtime: Bool
    /// The equalizer and volume, handed to each pipeline's output thread without a lock.
    private let sound = SoundControl()
    /// What `setSound` set last.
    public private(set) var soundSettings = SoundSettings()
    /// Media seconds per second heard, 0.5 - 3, pitch kept; taken by the next `start`. At 1
    /// the samples go to the device untouched.
    public var playbackRate = 1.0

    /// `realtime` asks for `SCHED_FIFO` for each pipeline's output thread.
    public init(sink: any AudioSink, openDecoder: @escaping AudioDecoderFactory, realtime: Bool = true) {
        self.sink = sink
        openItem = { [titles, events] item throws(DecoderError) in
            let url = item.path
            return try openDecoder(
                DecoderRequest(
                    path: url, known: item.known,
                    onTitle: { title in
                        titles.withLock { $0[url] = title }
                        events.signal()
                    }))
        }
        self.realtime = realtime
        SoundChain.warmUp()
    }

    deinit {
        releaseAll()
        waitForDevice(timeout: 2)
    }

    public var isRunning: Bool { pipeline != nil }
    /// Counts the pipelines started: a sleep fade (`fadeForSleep`) belongs to one of them.
    public private(set) var pipelineGeneration = 0
    /// Whether the device is open, or being opened for the running pipeline.
    public var isDeviceOpen: Bool { deviceFormat != nil }
    public var deviceName: String { sink.deviceName }
    /// Whether the open device is a sound server's stream (`AudioSink.isServerStream`); false
    /// until it is open.
    public var isServerStream: Bool { openedDevice?.isServerStream ?? false }
    /// Whether the open device is closed at a pause, not held (`AudioSink.closesAtPause`);
    /// false until it is open.
    public var closesDeviceAtPause: Bool { openedDevice?.closesAtPause ?? false }
    /// Whether the device can come back by itself after a failure (`AudioSink.reconnects`).
    public var deviceReconnects: Bool { sink.reconnects }
    /// The card behind the open device, when it is a card's own (`AudioSink.hardwareDevice`).
    public var hardwareDevice: HardwareDevice? { openedDevice?.hardware }
    /// Whether the device has started playing what the current pipeline wrote.
    public var isAudible: Bool { pipeline?.state.isAudible.load(ordering: .acquiring) ?? false }
    /// The running pipeline's rate (1 when nothing runs, or when its stretcher could not be made).
    public var runningRate: Double { pipeline?.rate ?? 1 }
    /// Whether the current pipeline's output thread runs with `SCHED_FIFO`.
    public var isRealtime: Bool { pipeline?.isRealtime ?? false }

    /// Starts playing `item` from `frame` (clamped to the item), followed by `upcoming`.
    /// Returns the frame decoding starts at. The pipeline's output thread opens (or reopens, on
    /// a format change) the device; `deviceOpened` or `deviceFailed` says how that went.
    /// With `fadingIn`, the first 5 ms rise from silence: for a restart in mid-sound that is
    /// not a seek (a new rate), which would otherwise begin with a step. Without it, the
    /// samples are the decoder's, bit for bit.
    ///
    /// The seek itself is the decoder thread's first step, not done here: finding a frame
    /// hours into an audiobook reads every frame header up to it, and the event loop
    /// answers requests meanwhile. A seek that fails there ends the item as a read error
    /// part-way does (`itemsCutShort`).
    ///
    /// With `fadingFrom` (a skip's crossfade), the pipeline first plays that item from its
    /// `startFrame` to its `endFrame` (where the item left was heard, and the fade's length on),
    /// fading out while `item` fades in from its first frame; the position is `item`'s from the
    /// start. Without a fade when the two differ in format, beyond stereo, or when the item
    /// left cannot be opened again.
    public func start(
        _ item: EngineItem, atFrame frame: Int, upcoming: [EngineItem], fadingIn: Bool = false,
        fadingFrom outgoing: EngineItem? = nil
    ) throws(DecoderError) -> Int {
        lastStartResumed = !fadingIn && outgoing == nil && resume(item, atFrame: frame, upcoming: upcoming)
        if lastStartResumed { return frame }
        halt()
        let left = parked
        let reused = left.flatMap { $0.itemID == item.id ? $0.decoder : nil }
        parked = nil
        let decoder: any AudioDecoder
        if let reused {
            decoder = reused
        } else {
            decoder = try openItem(item)
        }
        // A parked decoder is wherever it stopped: it seeks even to frame 0.
        let seeks = frame > 0 || reused != nil
        let target = seeks ? max(0, min(frame, decoder.frameCount ?? frame)) : 0
        var opening: DeviceOpening?
        if deviceFormat != decoder.format {
            opening = DeviceOpening(format: decoder.format, after: deviceWork)
            (deviceFormat, deviceWork, openedDevice) = (decoder.format, nil, nil)
            reportedXruns = 0
        } else if let work = deviceWork {
            // The halted pipeline's output thread may still be dropping the buffer.
            (opening, deviceWork) = (DeviceOpening(format: nil, after: work), nil)
        }
        events.reset()
        reportedSegment = 0
        beginPipeline()
        if let outgoing, let fading = fadeOut(of: outgoing, into: decoder.format, parked: left) {
            var incoming = item
            incoming.startFrame = target
            incoming.fadeInFrames = (outgoing.endFrame ?? outgoing.startFrame) - outgoing.startFrame
            incoming.fadeSkipsSilence = false
            // The incoming item's decoder, opened here to learn its format, is the one the
            // decoder thread takes for it (a parked one is wherever it stopped: it opens anew).
            let opened = ParkedDecoder()
            if reused == nil { opened.park(decoder, itemID: incoming.id) }
            let openItem = openItem
            let openIncoming: ItemOpener = { item throws(DecoderError) in
                if let handed = opened.take(), handed.itemID == item.id { return handed.decoder }
                return try openItem(item)
            }
            pipeline = Pipeline(
                first: outgoing, decoder: fading, startFrame: outgoing.startFrame, seeks: true,
                upcoming: [incoming] + upcoming, heardAs: incoming, sink: sink, openItem: openIncoming, events: events,
                realtime: realtime, sound: sound, rate: playbackRate, fadesIn: false, opening: opening)
            return target
        }
        pipeline = Pipeline(
            first: item, decoder: decoder, startFrame: target, seeks: seeks, upcoming: upcoming,
            sink: sink, openItem: openItem, events: events, realtime: realtime, sound: sound,
            rate: playbackRate, fadesIn: fadingIn, opening: opening)
        return target
    }

    /// What every start does, a resume included: a sleep fade belongs to the pipeline whose
    /// samples it counts, and this is a new one.
    private func beginPipeline() {
        if soundSettings.fade != nil {
            soundSettings.fade = nil
            sound.set(soundSettings)
        }
        pipelineGeneration += 1
    }

    /// Resumes the pipeline paused in place when it was heard last at `item`'s `frame` (the
    /// position `pause` returned), at the same rate, and the item and what follows are still
    /// what it plays (an A-B loop set, a gain changed or a queue that no longer follows what
    /// it decoded starts anew). Whether it did.
    private func resume(_ item: EngineItem, atFrame frame: Int, upcoming: [EngineItem]) -> Bool {
        guard let paused = suspended, paused.rate == playbackRate,
            let heard = position(in: paused, extrapolate: false), heard.itemID == item.id, heard.frame == frame
        else { return false }
        let segment = paused.segments[heard.segment]
        guard segment.gain == item.gain, segment.mark == item.mark, segment.endFrame == item.endFrame,
            paused.upcoming.replace(with: upcoming, afterSegment: heard.segment) == .accepted
        else { return false }
        suspended = nil
        pipeline = paused
        reportedSegment = heard.segment
        beginPipeline()
        paused.resume()
        return true
    }

    /// The decoder of the item left by a skip, to fade out into `format`: the halted pipeline's
    /// (`parked`) when it was still on that item, else opened again; nil when it cannot fade
    /// (`start`). The pipeline seeks it to where the item was heard.
    private func fadeOut(
        of outgoing: EngineItem, into format: AudioFormat, parked: (itemID: UInt64, decoder: any AudioDecoder)?
    ) -> (any AudioDecoder)? {
        guard format.channels <= 2, let endFrame = outgoing.endFrame, endFrame > outgoing.startFrame else { return nil }
        let kept = parked.flatMap { $0.itemID == outgoing.id ? $0.decoder : nil }
        guard let decoder = kept ?? (try? openItem(outgoing)), decoder.format == format else { return nil }
        return decoder
    }

    /// Sets the equalizer and volume. The output thread takes them at its next write (within
    /// about 90 ms of processing) and crossfades to them over 5 ms. What the device already
    /// holds (up to its 1 s buffer) plays as it was, unless the device can replace it
    /// (`AudioSink.canRewrite`): then the output thread is woken and rewrites it from just
    /// ahead of the frame heard.
    public func setSound(_ settings: SoundSettings) {
        var settings = settings
        settings.fade = soundSettings.fade
        guard settings != soundSettings else { return }
        publishSound(settings)
    }

    /// Fades the running pipeline's output to silence, sample-accurately: from `seconds` after
    /// the sample heard now, over `duration` seconds, silent after that, until the next start
    /// (a sleep timer, which pauses when the fade has ended). Audio the device already holds is
    /// faded too where it can replace it (`AudioSink.canRewrite`); elsewhere the fade begins no
    /// earlier than the first sample not yet written. Nothing happens without a pipeline.
    public func fadeForSleep(startingIn seconds: Double, over duration: Double) {
        guard let pipeline else { return }
        let samplesPerSecond = Double(pipeline.format.sampleRate * pipeline.format.channels)
        let channels = pipeline.format.channels
        let start =
            playedSample(in: pipeline, extrapolate: true) + Int(max(0, seconds) * samplesPerSecond) / channels
            * channels
        var settings = soundSettings
        settings.fade = SoundSettings.SampleFade(
            startSample: start, endSample: start + Int(max(0, duration) * samplesPerSecond) / channels * channels)
        publishSound(settings)
    }

    /// Ends a sleep fade: the output is heard at its level again (with the 5 ms crossfade of
    /// any change).
    public func cancelSleepFade() {
        guard soundSettings.fade != nil else { return }
        var settings = soundSettings
        settings.fade = nil
        publishSound(settings)
    }

    private func publishSound(_ settings: SoundSettings) {
        soundSettings = settings
        sound.set(settings)
        if openedDevice?.canRewrite == true { pipeline?.wakeOutput() }
    }

    /// Stops playback, dropping what the device buffered, and returns the exact position heard
    /// last. The device stays open. Nil when nothing was running.
    @discardableResult
    public func halt() -> EnginePosition? {
        end { $0.halt() }
    }

    /// Pauses: on a device held open at a pause (not `closesAtPause`), the pipeline stops
    /// where it is heard and waits, keeping what it decoded (`Pipeline.suspend`), so that a
    /// `start` at the position returned plays on at once, without opening, seeking or decoding
    /// again; otherwise, or when the pipeline cannot pause in place, a `halt`. Returns the
    /// exact position heard last either way, as `halt` does.
    @discardableResult
    public func pause() -> EnginePosition? {
        guard let running = pipeline, !closesDeviceAtPause else { return halt() }
        switch running.suspend() {
        case .paused:
            pipeline = nil
            suspended = running
            return position(in: running, extrapolate: false, notBeforeSegment: reportedSegment)
        case .declined:
            return halt()
        case .unanswered:
            // The device holds a write (a FIFO nobody reads): waited for once is enough.
            return end { $0.halt(waitingMilliseconds: 0) }
        }
    }

    /// Stops playback where the next `start` (with `fadingIn`) takes over without a cut, on a
    /// device that can replace what it holds (`canRewrite`): what it holds beyond the next few
    /// milliseconds is taken back, a 5 ms fade-out ends the audio, and the device plays on. A
    /// plain `halt` on other devices. Returns the frame after the fade.
    @discardableResult
    public func splice() -> EnginePosition? {
        guard openedDevice?.canRewrite == true else { return halt() }
        return end { $0.splice() }
    }

    /// Ends playback without a click, for shutdown: the device plays out what it holds, then a
    /// 50 ms fade of what follows, and stops at silence. Blocks until then (the device's buffer
    /// plus the fade; a device that takes no more audio is halted after 2 s). Returns the
    /// position heard last; nil when nothing ran.
    @discardableResult
    public func fadeOut() -> EnginePosition? {
        end { $0.fadeOut() }
    }

    /// Stops the pipeline with `stop`, parks its decoder and returns the position heard last.
    ///
    /// That position comes from the device's delay at the stop, `currentPosition` from an
    /// earlier reading carried forward by the clock: near an item boundary the two can fall on
    /// either side of it by a few milliseconds (a sound server's delay is that noisy). An item
    /// `currentPosition` already placed playback in is kept, from its start: a pause just after
    /// the new item was announced must not bring back the one before.
    /// A pipeline still opening the device is left to end by itself (it closes the device):
    /// the device's next user waits for it.
    private func end(_ stop: (Pipeline) -> Pipeline.Ending) -> EnginePosition? {
        if let paused = suspended {
            suspended = nil
            let position = end(paused) { $0.halt() }
            if pipeline == nil { return position }
        }
        guard let pipeline else { return nil }
        self.pipeline = nil
        return end(pipeline, stop)
    }

    /// Stops `pipeline` (the running one, or the one paused in place) with `stop`.
    private func end(_ pipeline: Pipeline, _ stop: (Pipeline) -> Pipeline.Ending) -> EnginePosition? {
        switch stop(pipeline) {
        case .joined:
            noteDeviceOpen(by: pipeline)
        case .dropping(let work):
            noteDeviceOpen(by: pipeline)
            deviceWork = work
        case .abandoned(let work):
            (deviceFormat, deviceWork, openedDevice) = (nil, work, nil)
        }
        // Its output thread has waited for the work before it, unless it was still opening.
        pipeline.releasePipelineBefore()
        parked = pipeline.parking.take()
        return position(in: pipeline, extrapolate: false, notBeforeSegment: reportedSegment)
    }

    /// Halts and closes the device (on a thread of its own), so other programs can use it.
    /// The parked decoder stays, so `play` resumes without opening and rescanning the file.
    public func releaseDevice() {
        halt()
        closeDevice()
    }

    /// Closes the device on a thread of its own, after its work before.
    private func closeDevice() {
        guard deviceFormat != nil else { return }
        (deviceWork, deviceFormat, openedDevice) = (DeviceWork.closing(sink, after: deviceWork), nil, nil)
    }

    /// Waits, at most `timeout` seconds, until the device's work (a closing, an abandoned
    /// open) has ended: at the exit, after `releaseAll`, so that the device is closed before
    /// the process ends (a sound server's stream, a capture file). Whether it did.
    @discardableResult
    public func waitForDevice(timeout: Double) -> Bool {
        guard let work = deviceWork else { return true }
        deviceWork = nil
        return work.wait(timeout: timeout)
    }

    /// Takes in what the device the pipeline's output thread opened turned out to be, once
    /// it said it is open.
    private func noteDeviceOpen(by pipeline: Pipeline) {
        guard openedDevice == nil, deviceFormat != nil, pipeline.state.deviceReady.load(ordering: .acquiring) else {
            return
        }
        openedDevice = OpenedDevice(
            isServerStream: sink.isServerStream, closesAtPause: sink.closesAtPause, hardware: sink.hardwareDevice,
            canRewrite: sink.canRewrite)
    }

    /// Waits, at most `timeout` seconds, until the threads of the streams' HTTP transfers that
    /// were closed (with their decoders) have ended: they end by themselves, within about a
    /// second. Whether they all did. For the daemon's exit, after `releaseAll`.
    public static func waitForTransfersToEnd(timeout: Double) -> Bool {
        HTTPTransfer.waitForAllToEnd(timeout: timeout)
    }

    /// Halts, closes the device and closes the parked decoder's file: afterwards the engine
    /// holds nothing open, so the disk the music came from can be unmounted. For stop, the end
    /// of the queue, and the end of the hold time while paused.
    public func releaseAll() {
        releaseDevice()
        parked = nil
    }

    /// Whether a decoder is kept for the next `start` of the item it played (its file open),
    /// parked or in a pipeline paused in place.
    public var holdsDecoder: Bool { parked != nil || suspended != nil }

    /// Whether the decoder kept is `itemID`'s: a `start` of that item opens nothing.
    public func holdsDecoder(of itemID: UInt64) -> Bool {
        guard let paused = suspended else { return parked?.itemID == itemID }
        return paused.segments[paused.segments.count - 1].itemID == itemID
    }

    /// Forgets the parked decoder, and the pipeline paused in place (its file may have changed,
    /// a stream connects anew, or the queue was cleared).
    public func forgetParkedDecoder() {
        if suspended != nil { halt() }
        parked = nil
    }

    /// The position being heard now, extrapolated from the output thread's last measurement.
    public func currentPosition() -> EnginePosition? {
        guard let pipeline, let position = position(in: pipeline, extrapolate: true) else { return nil }
        reportedSegment = max(reportedSegment, position.segment)
        return position
    }

    /// Seconds until the start of the running pipeline's `segment` is heard, by the output
    /// thread's last measurement carried forward; nil when nothing runs or the segment is not
    /// logged.
    public func secondsUntilHeard(segment: Int) -> Double? {
        guard let pipeline, segment < pipeline.segments.count else { return nil }
        let played = playedSample(in: pipeline, extrapolate: true)
        let left = max(0, pipeline.segments[segment].startSample - played) / pipeline.format.channels
        return FrameTime.seconds(left, rate: pipeline.format.sampleRate)
    }

    /// The output thread's last measurement itself, and how many seconds ago it was taken:
    /// an anchor for `(elapsed, rate, timestamp)` that carries no extrapolation error.
    public func measuredPosition() -> (position: EnginePosition, age: Double)? {
        guard let pipeline, let position = position(in: pipeline, extrapolate: false) else { return nil }
        let age = PlaybackClock.monotonicNow() &- pipeline.clock.read().monotonicNanos
        return (position, Double(age) / 1e9)
    }

    /// Replaces what plays after `segment` (a position's `segment`: the item heard now).
    /// Items already being decoded stay when the list still starts with them.
    @discardableResult
    public func setUpcoming(_ items: [EngineItem], afterSegment segment: Int) -> UpcomingUpdate {
        pipeline?.upcoming.replace(with: items, afterSegment: segment) ?? .tooLate
    }

    /// Collects what happened since the last call. Call when `events` is readable.
    public func takeEvents() -> [EngineEvent] {
        events.reset()
        var result = titles.withLock { titles in
            defer { titles = [:] }
            return titles.sorted { $0.key < $1.key }.map { EngineEvent.streamTitle(url: $0.key, $0.value) }
        }
        guard let pipeline else { return result }
        if pipeline.state.deviceOpened.exchange(false, ordering: .acquiringAndReleasing) {
            noteDeviceOpen(by: pipeline)
            result.append(.deviceOpened)
        }
        let skipped = pipeline.state.skippedItems.exchange(0, ordering: .relaxed)
        if skipped > 0 { result.append(.itemsSkipped(count: skipped)) }
        let cutShort = pipeline.state.itemsCutShort.exchange(0, ordering: .relaxed)
        if cutShort > 0 {
            let reason = pipeline.state.cutShortReason.withLock { $0 }
            result.append(.itemsCutShort(count: cutShort, reason: reason))
        }
        if pipeline.state.deviceReady.load(ordering: .acquiring) {
            let xruns = sink.recoveredXruns
            if xruns > reportedXruns { result.append(.xrunsRecovered(count: xruns - reportedXruns)) }
            reportedXruns = xruns
        }
        if pipeline.state.becameAudible.exchange(false, ordering: .acquiringAndReleasing) {
            result.append(.audible)
        }
        if pipeline.state.segmentStarted.exchange(false, ordering: .acquiringAndReleasing) {
            result.append(itemStarted(in: pipeline))
        }
        switch pipeline.state.outcomeValue {
        case .running, .halted:
            break
        case .finished:
            pipeline.join()
            self.pipeline = nil
            parked = pipeline.parking.take()
            let next =
                pipeline.state.decoderEndValue == .formatChange
                ? pipeline.state.formatChangeItem.load(ordering: .acquiring) : nil
            if next == nil { closeDevice() }
            result.append(.finished(last: position(in: pipeline, extrapolate: false), next: next))
        case .failed:
            pipeline.join()
            self.pipeline = nil
            parked = pipeline.parking.take()
            let position = position(in: pipeline, extrapolate: false)
            // The output thread closed the device.
            (deviceFormat, openedDevice) = (nil, nil)
            result.append(
                .deviceFailed(
                    pipeline.state.failure!, position: position,
                    opening: pipeline.state.failedOpening.load(ordering: .relaxed)))
        }
        return result
    }

    private func itemStarted(in pipeline: Pipeline) -> EngineEvent {
        let index = pipeline.segments.outputSegment.load(ordering: .acquiring)
        let segment = pipeline.segments[index]
        let played = playedSample(in: pipeline, extrapolate: true)
        let frames = max(0, segment.startSample - played) / pipeline.format.channels
        return .itemStarted(
            itemID: segment.itemID, segment: index,
            audibleIn: FrameTime.seconds(frames, rate: pipeline.format.sampleRate))
    }

    private func position(in pipeline: Pipeline, extrapolate: Bool, notBeforeSegment floor: Int = 0) -> EnginePosition?
    {
        var sample = playedSample(in: pipeline, extrapolate: extrapolate)
        if floor > 0 && floor < pipeline.segments.count {
            sample = max(sample, pipeline.segments[floor].startSample)
        }
        guard let (index, segment, frame) = pipeline.itemPosition(atSample: sample) else { return nil }
        return EnginePosition(
            itemID: segment.itemID, frame: frame, sampleRate: pipeline.format.sampleRate, segment: index,
            mark: segment.mark, isGap: segment.isGap)
    }

    /// Samples heard: written minus the device delay, advanced by the time since the
    /// measurement while the device still had audio queued.
    private func playedSample(in pipeline: Pipeline, extrapolate: Bool) -> Int {
        let reading = pipeline.clock.read()
        let channels = pipeline.format.channels
        var playedFrames = reading.samplesWritten / channels - reading.delayFrames
        if extrapolate && reading.delayFrames > 0 && pipeline.state.outcomeValue == .running
            && pipeline.state.isAudible.load(ordering: .acquiring)
        {
            let elapsed = PlaybackClock.monotonicNow() &- reading.monotonicNanos
            let frames = Int(elapsed) * pipeline.format.sampleRate / 1_000_000_000
            playedFrames += min(frames, reading.delayFrames)
        }
        return max(0, playedFrames) * channels
    }
}

/// What the open device turned out to be, read once its output thread said it is open.
private struct OpenedDevice {
    var isServerStream: Bool
    var closesAtPause: Bool
    var hardware: HardwareDevice?
    var canRewrite: Bool
}
