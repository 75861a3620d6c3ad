import SystemSupport

/// The real-time output thread's work: move samples from the ring to the device.
///
/// It never takes a lock, allocates, logs or invents samples. It waits only for ALSA (in
/// `poll`, together with `outputWake`) or for data from the decoder (on `outputWake`, which
/// the decoder signals). After every write it publishes `(samples written, device delay,
/// time)` for the clock, and when it reaches the first sample of a new item it tells the
/// event loop through `events`.
///
/// Generic over the sample type only, which the pipeline knows: each type's loop is compiled for
/// it (specialized), while the sink, chosen at run time, is called through its protocol.
struct OutputLoop<Sample: PCMSample> {
    let sink: any AudioSink
    let channels: Int
    let sampleRate: Int
    let ring: SampleRing<Sample>
    let segments: SegmentLog
    let state: PipelineState
    let clock: PlaybackClock
    let outputWake: EventSignal
    let decoderWake: EventSignal
    let events: EventSignal
    /// Room for the fade-out's samples, allocated with the pipeline.
    let fadeBuffer: UnsafeMutableBufferPointer<Sample>
    /// The equalizer and volume, as the event loop last set them.
    let sound: SoundControl
    /// Where processed samples wait for the device, allocated with the pipeline.
    let processBuffer: UnsafeMutableBufferPointer<Sample>
    /// The chain's scratch space, allocated with the pipeline.
    let soundScratch: SoundScratch
    /// Frames over which the first samples rise from silence (0: they start as they are).
    let fadeInFrames: Int
    /// The chain before each block written, when the device can replace what it holds
    /// (`AudioSink.canRewrite`, once it is open); nil otherwise.
    let history: RewriteHistory?
    /// The device's work to wait for first: its opening (`opens`), or the previous pipeline's
    /// output thread still dropping its buffer; nil when there is none.
    let opening: DeviceWork?
    /// Whether `opening` opens the device.
    let opens: Bool
    /// Signalled with `PipelineState.stopPublished`.
    let stopped: EventSignal
    /// How far past what the device has not taken yet (`AudioSink.rewritableFrames`) a rewrite
    /// begins: the time for it to reach the device.
    static var rewriteMarginMilliseconds: Int { 10 }
    /// How often the output thread reads the clock while it waits for the device to start
    /// once everything is written (a little over one window of `StartDetector.minimumWindowNanos`).
    static var startPollMilliseconds: Int32 { 25 }

    func run() {
        guard openDevice() else { return }
        // A device that turned out unable to replace what it holds is written without one.
        let history = sink.canRewrite ? history : nil
        var nextSegment = 1
        var start = StartDetector(sampleRate: sampleRate)
        var chain = SoundChain(channels: channels, sampleRate: sampleRate, scratch: soundScratch)
        var parameters = SoundParameters()
        var soundVersion = sound.read(ifNewerThan: .max, into: &parameters) ?? .max
        parameters.itemGain = segments[0].gain
        chain.start(with: parameters)
        // Processed samples not yet accepted by the device: processBuffer[pending].
        var pending = 0..<0
        var fadedIn = 0
        while true {
            if state.isHaltRequested { return end(.halted, delay: sink.delay(), drop: true) }
            if state.fadeRequested.load(ordering: .acquiring) {
                return fadeOut(&chain, pending: pending, frames: fadeBuffer.count / channels, drains: true)
            }
            if state.spliceRequested.load(ordering: .acquiring) {
                // Without a history (a device that cannot replace its buffer) the engine halts.
                if let history,
                    rewriteBuffered(history, &chain, &fadedIn, notBefore: segments[nextSegment - 1].startSample)
                {
                    pending = 0..<0
                }
                let frames = sampleRate * Pipeline.fadeInMilliseconds / 1000
                return fadeOut(&chain, pending: pending, frames: frames, drains: false)
            }
            if state.isSuspension(.requested) {
                switch pauseInPlace(segmentStart: segments[nextSegment - 1].startSample, rewrites: history != nil) {
                case .declined:
                    break
                case .halted(let delay, let drops):
                    return end(.halted, delay: delay, drop: drops)
                case .resumed(fromRing: false):
                    start = StartDetector(sampleRate: sampleRate)
                    continue
                case .resumed(fromRing: true):
                    // What was processed and not taken is processed again, by a chain that starts
                    // afresh as a new pipeline's would: the pause is a cut either way.
                    pending = 0..<0
                    soundVersion = sound.read(ifNewerThan: soundVersion, into: &parameters) ?? soundVersion
                    parameters.itemGain = segments[nextSegment - 1].gain
                    chain.position = ring.totalRead
                    chain.restart(with: parameters)
                    start = StartDetector(sampleRate: sampleRate)
                    fadedIn = fadeInFrames
                    continue
                }
            }
            // New settings: heard from the next block, or, where the device can replace what it
            // holds, from a block just ahead of the one heard now (what was processed and not
            // written yet is then processed again). Samples processed and not written stay as
            // they are unless the chain went back to before them: the chain has moved past them.
            if pending.isEmpty || history != nil,
                let version = sound.read(ifNewerThan: soundVersion, into: &parameters)
            {
                soundVersion = version
                if let history,
                    rewriteBuffered(history, &chain, &fadedIn, notBefore: segments[nextSegment - 1].startSample)
                {
                    pending = 0..<0
                }
                parameters.itemGain = segments[nextSegment - 1].gain
                chain.apply(parameters)
            }
            nextSegment = noteBoundaries(from: nextSegment)
            var region = ring.readableRegion()
            if region.isEmpty {
                if finishedDecoding() { return endOfStream(&start) }
                waitForData()
                continue
            }
            if nextSegment < segments.count {
                let untilBoundary = segments[nextSegment].startSample - ring.totalRead
                region = UnsafeBufferPointer(rebasing: region.prefix(untilBoundary))
            }
            if history != nil {
                region = UnsafeBufferPointer(rebasing: region.prefix(RewriteHistory.blockFrames * channels))
            }
            if pending.isEmpty {
                // An item with another gain (a block never spans two items).
                let itemGain = segments[nextSegment - 1].gain
                if itemGain != parameters.itemGain {
                    parameters.itemGain = itemGain
                    chain.apply(parameters)
                }
                chain.position = ring.totalRead
                history?.record(position: ring.totalRead, chain: chain, fadedIn: fadedIn)
                let count = min(region.count, processBuffer.count)
                if !chain.isTransparent(forSamples: count) || fadedIn < fadeInFrames {
                    let processed = UnsafeMutableBufferPointer(rebasing: processBuffer[..<count])
                    chain.process(UnsafeBufferPointer(rebasing: region.prefix(count)), into: processed)
                    fadedIn = fadeIn(processed, from: fadedIn)
                    pending = 0..<count
                }
            }
            let frames: Int
            do {
                frames = try sink.write(
                    UnsafeRawBufferPointer(
                        pending.isEmpty ? region : UnsafeBufferPointer(rebasing: processBuffer[pending])))
                if frames == 0 {
                    if !isAudible && sink.reportsStart {
                        // The device is full and says when it starts: ask it again shortly
                        // instead of sleeping until it wants data (half a second on a sound
                        // server). Its answer is also the proof that the output lives: the
                        // clock is published only after it (a frozen server stops both, and
                        // the watchdog sees the output stall).
                        outputWake.wait(timeoutMilliseconds: Self.startPollMilliseconds)
                        let playing = sink.hasStartedPlaying()
                        let delay = sink.delay()
                        let nanos = clock.publish(samplesWritten: ring.totalRead, delayFrames: delay)
                        noteAudibleIfPlaying(&start, delay: delay, nanos: nanos, deviceSaysPlaying: playing)
                        continue
                    }
                    _ = try sink.waitWritable(orWake: outputWake)
                    continue
                }
            } catch {
                state.failure = error
                return end(.failed, delay: 0, drop: false)
            }
            if !pending.isEmpty { pending = (pending.lowerBound + frames * channels)..<pending.upperBound }
            ring.consume(frames * channels)
            if ring.hasRoomToRefill, state.decoderWaitingForSpace.exchange(false, ordering: .acquiringAndReleasing) {
                decoderWake.signal()
            }
            let delay = sink.delay()
            let nanos = clock.publish(samplesWritten: ring.totalRead, delayFrames: delay)
            // A device that reports its start is asked once it is full (above), not after
            // each write (each question is a round trip to a sound server).
            if !sink.reportsStart { noteAudibleIfPlaying(&start, delay: delay, nanos: nanos) }
        }
    }

    private var isAudible: Bool { state.isAudible.load(ordering: .relaxed) }

    /// How a pause in place ended.
    private enum PauseInPlace {
        /// The device's buffer could be neither kept nor written again: playing on, the engine halts.
        case declined
        /// Paused, then resumed. `fromRing`: the device's buffer was dropped and the ring's read
        /// position stepped back to the sample heard last (else the device kept its buffer).
        case resumed(fromRing: Bool)
        /// Paused, then halted, with `delay` frames in the device, to be dropped or not.
        case halted(delay: Int, drops: Bool)
    }

    /// Answers a pause in place (`Pipeline.suspend`), then waits, with no timeout, for the
    /// resume or a halt. A device that can pause where it plays (`AudioSink.pauseKeepingBuffer`:
    /// a card's own) keeps what it holds, and plays on from there. Otherwise, when what it
    /// holds lies within the item being written (from `segmentStart` on) and within what the
    /// ring keeps behind its read position, and the device does not replace its buffer instead
    /// (`rewrites`): its buffer is dropped and the ring steps back to the sample heard last, to
    /// write it again. Else the pause is declined.
    private func pauseInPlace(segmentStart: Int, rewrites: Bool) -> PauseInPlace {
        let keepsBuffer = sink.pauseKeepingBuffer(true)
        let delay = sink.delay()
        let back = delay * channels
        if !keepsBuffer {
            guard !rewrites, back <= ring.reserve, ring.totalRead - back >= segmentStart else {
                state.suspension.store(PipelineState.Suspension.declined.rawValue, ordering: .releasing)
                stopped.signal()
                return .declined
            }
            sink.drop()
            ring.unconsume(back)
        }
        clock.publish(samplesWritten: ring.totalRead, delayFrames: keepsBuffer ? delay : 0)
        state.isAudible.store(false, ordering: .releasing)
        state.suspension.store(PipelineState.Suspension.suspended.rawValue, ordering: .releasing)
        stopped.signal()
        while state.isSuspension(.suspended) && !state.isHaltRequested { outputWake.wait() }
        if state.isHaltRequested { return .halted(delay: keepsBuffer ? delay : 0, drops: keepsBuffer) }
        // A device that does not play on again has lost what it held: it is skipped.
        if keepsBuffer && !sink.pauseKeepingBuffer(false) { sink.drop() }
        return .resumed(fromRing: !keepsBuffer)
    }

    /// Waits for the device's opening when the pipeline needs one (or for the output thread
    /// before it, still dropping its buffer): here, so that the event loop never waits for a
    /// device. The event loop hears of an opening (`deviceOpened`). False when the device could
    /// not be opened: the pipeline fails, and the device's error is its reason.
    private func openDevice() -> Bool {
        guard let opening else { return true }
        opening.wait()
        guard opens else { return true }
        if opening.failed {
            state.failure = opening.failure
            state.failedOpening.store(true, ordering: .relaxed)
            end(.failed, delay: 0, drop: false)
            return false
        }
        state.deviceOpened.store(true, ordering: .relaxed)
        state.deviceReady.store(true, ordering: .releasing)
        events.signal()
        return true
    }

    /// Takes back what the device holds from the first block that starts at least
    /// `rewriteMarginMilliseconds` after the frame the device has not taken yet (and not
    /// before `segmentStart`, the current item's first sample, nor further back than the ring
    /// keeps): the device moves its write position back there, the ring its read position, and
    /// the chain is restored as it was before that block. The next writes then replace the
    /// audio from there on. With nothing to take back, the chain goes back to where it was
    /// before the block that starts at the read position, if one does. Returns whether the
    /// chain was restored (samples it processed beyond that point must be processed again);
    /// false when no block starts late enough and at or before the read position (the device
    /// holds too little, or the read position is within a block the device took in part).
    private func rewriteBuffered(
        _ history: RewriteHistory, _ chain: inout SoundChain, _ fadedIn: inout Int, notBefore segmentStart: Int
    ) -> Bool {
        let written = ring.totalRead
        let untaken = written - sink.rewritableFrames() * channels
        let margin = sampleRate * Self.rewriteMarginMilliseconds / 1000 * channels
        let earliest = min(written, max(untaken + margin, segmentStart, written - ring.reserve))
        guard var entry = history.entry(atOrAfter: earliest, before: written + 1) else { return false }
        var frames = (written - entry.position) / channels
        if frames > 0 && sink.rewind(frames) != frames {
            guard let current = history.entry(atOrAfter: written, before: written + 1) else { return false }
            (entry, frames) = (current, 0)
        }
        ring.unconsume(frames * channels)
        history.forget(from: entry.position)
        chain = entry.chain
        fadedIn = entry.fadedIn
        return true
    }

    /// The device has played something: from now on the clock may extrapolate.
    private func noteAudible() {
        state.isAudible.store(true, ordering: .releasing)
        state.becameAudible.store(true, ordering: .releasing)
        events.signal()
    }

    /// Advances past every segment that starts at the current read position.
    private func noteBoundaries(from index: Int) -> Int {
        var index = index
        while index < segments.count && segments[index].startSample <= ring.totalRead {
            index += 1
            segments.outputSegment.store(index - 1, ordering: .releasing)
            state.segmentStarted.store(true, ordering: .releasing)
            events.signal()
            if state.decoderWaitingForSpace.exchange(false, ordering: .acquiringAndReleasing) {
                decoderWake.signal()
            }
        }
        return index
    }

    private func finishedDecoding() -> Bool {
        !state.isDecoderEnd(.running) && ring.readableCount == 0
    }

    private func waitForData() {
        state.outputWaitingForData.store(true, ordering: .sequentiallyConsistent)
        if ring.readableCount == 0 && state.isDecoderEnd(.running) && !state.isHaltRequested
            && !state.fadeRequested.load(ordering: .acquiring) && !state.spliceRequested.load(ordering: .acquiring)
            && !state.isSuspension(.requested)
        {
            outputWake.wait()
        }
        state.outputWaitingForData.store(false, ordering: .relaxed)
    }

    /// Plays out what the device holds. It waits in steps a halt can interrupt until about one
    /// period is left, and only then drains (which blocks): a pause in the last second of the
    /// queue waits at most one period, and the stream still ends without an underrun. A device
    /// whose delay stops going down (a PulseAudio stream that underran waits for its prebuffer
    /// to fill again, which the rest of a queue may never do) is drained after
    /// `playOutStallNanoseconds` without progress: draining starts it.
    private func endOfStream(_ start: inout StartDetector) {
        var progress = (delay: Int.max, at: PlaybackClock.monotonicNow())
        while true {
            // A splice this late (the queue's last second is written) is a halt: it cuts.
            if state.isHaltRequested || state.spliceRequested.load(ordering: .acquiring) {
                return end(.halted, delay: sink.delay(), drop: true)
            }
            // Everything is written: the ring holds nothing to write again (the engine halts).
            if state.isSuspension(.requested) {
                state.suspension.store(PipelineState.Suspension.declined.rawValue, ordering: .releasing)
                stopped.signal()
            }
            let delay = sink.delay()
            let nanos = clock.publish(samplesWritten: ring.totalRead, delayFrames: delay)
            // A device can start only now, after everything was written (a short item).
            noteAudibleIfPlaying(&start, delay: delay, nanos: nanos)
            guard delay > sink.periodFrames else { break }
            if delay < progress.delay {
                progress = (delay, nanos)
            } else if nanos &- progress.at > Self.playOutStallNanoseconds {
                break
            }
            // Until the start is confirmed the detector needs readings a few windows apart: a
            // device that was slow to start would otherwise be announced only at the very end.
            let untilLastPeriod = Int32((delay - sink.periodFrames) * 1000 / sampleRate) + 1
            outputWake.wait(
                timeoutMilliseconds: isAudible ? untilLastPeriod : min(untilLastPeriod, Self.startPollMilliseconds))
        }
        // A device that reports its start and has not yet (a sink playing out what it had
        // rendered ahead) plays what remains while it drains.
        if !isAudible && sink.reportsStart { noteAudible() }
        sink.drain()
        end(.finished, delay: 0, drop: false)
    }

    /// How long the play-out waits for a device whose delay does not go down before it drains.
    static var playOutStallNanoseconds: UInt64 { 500_000_000 }

    /// Writes the next `frames` (at most the fade buffer's length) scaled from full to zero
    /// gain, in integer arithmetic (`sample * (n - i) / n` for frame `i` of `n`). With
    /// `drains`, then drains the device: what it holds plays out, followed by the fade, and the
    /// stream ends at silence; without, it ends at once, the position being the end of the
    /// fade, and the device plays on into what the next pipeline writes.
    ///
    /// The fade goes through the equalizer too, so the last sound is not a jump back to the
    /// unprocessed signal. Samples the chain already processed and the device has not taken
    /// yet (`pending`, in `processBuffer`) come first, as they are: the chain's filters have
    /// moved past them, and processing them again would start from the wrong memory (a step
    /// in the output, which a test caught).
    private func fadeOut(_ chain: inout SoundChain, pending: Range<Int>, frames: Int, drains: Bool) {
        let fadeFrames = min(frames * channels, fadeBuffer.count, ring.readableCount) / channels
        let ready = min(pending.count / channels, fadeFrames)
        scaleIntoFade(
            UnsafeBufferPointer(rebasing: processBuffer[pending.lowerBound..<(pending.lowerBound + ready * channels)]),
            at: 0, of: fadeFrames)
        ring.consume(ready * channels)
        var frame = ready
        while frame < fadeFrames {
            let raw = ring.readableRegion()
            let frames = min(raw.count / channels, fadeFrames - frame)
            let processed = UnsafeMutableBufferPointer(rebasing: processBuffer[..<(frames * channels)])
            chain.process(UnsafeBufferPointer(rebasing: raw[..<(frames * channels)]), into: processed)
            scaleIntoFade(UnsafeBufferPointer(processed), at: frame, of: fadeFrames)
            ring.consume(frames * channels)
            frame += frames
        }
        var written = 0
        while written < fadeFrames * channels {
            if state.isHaltRequested { return end(.halted, delay: sink.delay(), drop: true) }
            do {
                let frames = try sink.write(
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: fadeBuffer[written..<fadeFrames * channels])))
                if frames == 0 {
                    _ = try sink.waitWritable(orWake: outputWake)
                    continue
                }
                written += frames * channels
            } catch {
                state.failure = error
                return end(.failed, delay: 0, drop: false)
            }
        }
        guard drains else { return end(.halted, delay: 0, drop: false) }
        clock.publish(samplesWritten: ring.totalRead, delayFrames: sink.delay())
        sink.drain()
        end(.halted, delay: 0, drop: false)
    }

    /// Scales the first frames of `samples` up from silence, continuing a fade-in at frame
    /// `done` of `fadeInFrames`; returns the frames faded in so far.
    private func fadeIn(_ samples: UnsafeMutableBufferPointer<Sample>, from done: Int) -> Int {
        let frames = min(samples.count / channels, fadeInFrames - done)
        guard frames > 0 else { return done }
        for index in 0..<frames {
            let reached = Int64(done + index)
            for channel in 0..<channels {
                let sample = Int64(samples[index * channels + channel])
                samples[index * channels + channel] = Sample(truncatingIfNeeded: sample * reached / Int64(fadeInFrames))
            }
        }
        return done + frames
    }

    /// Runs the fade's arithmetic once, on one silent frame, on the thread that makes the
    /// pipeline: unspecialized (a debug build), its conversions between the sample type and
    /// `Int64` look their conformances up at first use, which instantiates them (an
    /// allocation), and the first fade out must not do that on the output thread (the
    /// real-time test caught it once in three runs, at a SIGTERM's fade).
    func prepareFade() {
        let silence = [Sample](repeating: 0, count: channels)
        silence.withUnsafeBufferPointer { scaleIntoFade($0, at: 0, of: 1) }
    }

    /// Writes `region`'s frames into the fade buffer from `frame` on, scaled down linearly to
    /// reach zero at frame `fadeFrames`.
    private func scaleIntoFade(_ region: UnsafeBufferPointer<Sample>, at frame: Int, of fadeFrames: Int) {
        for index in 0..<(region.count / channels) {
            let remaining = Int64(fadeFrames - frame - index)
            for channel in 0..<channels {
                let sample = Int64(region[index * channels + channel])
                fadeBuffer[(frame + index) * channels + channel] =
                    Sample(truncatingIfNeeded: sample * remaining / Int64(fadeFrames))
            }
        }
    }

    /// Announces the start once the device's clock runs steadily (`StartDetector`); where the
    /// device says itself whether it plays, the detector counts only readings taken while it
    /// does and has played into this pipeline's audio (a stream that plays on holds the audio
    /// of the pipeline before first).
    /// `deviceSaysPlaying`: the device's answer, when the caller has just asked it.
    private func noteAudibleIfPlaying(
        _ start: inout StartDetector, delay: Int, nanos: UInt64, deviceSaysPlaying: Bool? = nil
    ) {
        guard !isAudible else { return }
        let played = ring.totalRead / channels - delay
        if sink.reportsStart && !(played > 0 && (deviceSaysPlaying ?? sink.hasStartedPlaying())) {
            start = StartDetector(sampleRate: sampleRate)
            return
        }
        guard start.isPlaying(playedFrames: played, delayFrames: delay, nanos: nanos) else { return }
        noteAudible()
    }

    /// Publishes the last position and the outcome. A device that failed, or that the event
    /// loop left this thread to close (`closesDevice`), is closed here first.
    private func end(_ outcome: PipelineState.Outcome, delay: Int, drop: Bool) {
        clock.publish(samplesWritten: ring.totalRead, delayFrames: delay)
        state.stopPublished.store(true, ordering: .releasing)
        stopped.signal()
        if drop { sink.drop() }
        // Raw values compared: no conformance looked up on this thread (`isSuspension`).
        if outcome.rawValue == PipelineState.Outcome.failed.rawValue || state.closesDevice.load(ordering: .acquiring) {
            sink.close()
        }
        state.outcome.store(outcome.rawValue, ordering: .releasing)
        events.signal()
    }
}
