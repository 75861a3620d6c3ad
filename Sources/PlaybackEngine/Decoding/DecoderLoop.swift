import SystemSupport

/// The decoder thread's work: decode the current item into the ring, then each upcoming item
/// of the same format, so item boundaries are sample-exact. libmpg123 writes straight into the
/// ring's free space (no intermediate copy). It blocks only when the ring (or the segment log)
/// is full, and is woken by the output thread or a halt.
///
/// At a playback rate other than 1 the samples go through a `TimeStretcher` on their way:
/// decoded into `stretchInput`, stretched, then moved into the ring. Every item of the
/// pipeline flows through the one stretcher, so the ring holds output time and each segment
/// starts at the output sample of its item's first media frame.
struct DecoderLoop<Sample: PCMSample> {
    let ring: SampleRing<Sample>
    let segments: SegmentLog
    let upcoming: UpcomingItems
    let state: PipelineState
    let openItem: ItemOpener
    let outputWake: EventSignal
    let decoderWake: EventSignal
    let parking: ParkedDecoder
    /// Nil at rate 1: the decoder writes straight into the ring.
    let stretcher: TimeStretcher?
    /// Where decoded samples wait for the stretcher (empty without one).
    let stretchInput: UnsafeMutableBufferPointer<Sample>

    /// What follows an item that ended.
    private enum Next {
        case item(UInt64, any AudioDecoder, ItemBounds)
        /// Nothing more to decode: the queue ended or the format changes.
        case end(PipelineState.DecoderEnd)
        /// A halt arrived while waiting.
        case halted
    }

    /// Decodes from `decoder` (after seeking to `frame`, when given) within `bounds` (up to an
    /// A-B loop's or a phrase's end, then its gap), then the upcoming items, until the queue
    /// ends, the format changes or the pipeline halts.
    func run(first decoder: any AudioDecoder, itemID: UInt64, seekingTo frame: Int?, bounds: ItemBounds) {
        var decoder = decoder
        var itemID = itemID
        var bounds = bounds
        defer { parking.park(decoder, itemID: itemID) }
        if let frame {
            do {
                _ = try decoder.seek(toFrame: frame)
            } catch {
                cutShort(error)
                switch nextDecoder(format: decoder.format, startSample: 0) {
                case .item(let nextID, let next, let nextBounds): (itemID, decoder, bounds) = (nextID, next, nextBounds)
                case .end(let end): return finish(end)
                case .halted: return
                }
            }
        }
        if let stretcher {
            return stretch(from: &decoder, itemID: &itemID, bounds: &bounds, through: stretcher)
        }
        let channels = decoder.format.channels
        let transition = Transition<Sample>(channels: channels, sampleRate: decoder.format.sampleRate)
        var ending: PipelineState.DecoderEnd?
        while !state.isHaltRequested {
            let region = ring.writableRegion()
            if region.isEmpty {
                guard waitForOutput() else { return }
                continue
            }
            if let run = transition.runs.first {
                guard write(run, into: region, of: transition) else { return }
                continue
            }
            if transition.isMixing {
                bounds.frame += transition.mixNext { decode(from: decoder, into: $0) }
                continue
            }
            if let ending { return finish(ending) }
            var allowed = bounds.limit(region, channels: channels)
            let hold = transition.isHolding ? nil : holdPoint(decoder, bounds, transition)
            if let hold {
                allowed = UnsafeMutableBufferPointer(
                    rebasing: allowed.prefix(max(0, hold.frame - bounds.frame) * channels))
            }
            let count =
                allowed.isEmpty || bounds.isInGap || transition.isHolding ? 0 : decode(from: decoder, into: allowed)
            if count > 0 {
                bounds.frame += count / channels
                commit(count)
                continue
            }
            if let hold, hold.fadeFrames > 0, bounds.frame >= hold.frame {
                // The fade into the next item is near: the rest of this one waits for it.
                bounds.frame += transition.hold(
                    frames: (bounds.end ?? decoder.frameCount ?? bounds.frame) - bounds.frame,
                    isExact: bounds.end != nil,
                    fadeFrames: hold.fadeFrames, skipsSilence: hold.skipsSilence
                ) { decode(from: decoder, into: $0) }
                continue
            }
            if transition.isHolding {
                switch openNext(format: decoder.format) {
                case .opened(let item, let next, let firstFrame):
                    let segment = self.segment(of: item, firstFrame: firstFrame)
                    var frame = firstFrame
                    if item.fadeInFrames > 0 && transition.isHolding {
                        let gain = segments[segments.count - 1].gain
                        frame += transition.fade(
                            into: segment, outgoingGain: gain, hasLength: next.frameCount != nil
                        ) { decode(from: next, into: $0) }
                    } else {
                        transition.release(before: segment)
                    }
                    (itemID, decoder, bounds) = (item.id, next, ItemBounds(item: item, frame: frame))
                case .end(let end):
                    transition.release(before: nil)
                    ending = end
                }
                continue
            }
            if bounds.gapFrames > 0 {
                guard beginGap(&bounds, itemID: itemID, atSample: ring.totalWritten) else { return }
                let silence = UnsafeMutableBufferPointer(rebasing: region.prefix(bounds.gapFrames * channels))
                silence.update(repeating: 0)
                bounds.gapFrames -= silence.count / channels
                commit(silence.count)
                continue
            }
            switch nextDecoder(format: decoder.format, startSample: ring.totalWritten) {
            case .item(let nextID, let next, let nextBounds): (itemID, decoder, bounds) = (nextID, next, nextBounds)
            case .end(let end): return finish(end)
            case .halted: return
            }
        }
    }

    /// The loop at a rate other than 1: output the stretcher has goes to the ring first; when
    /// it has none, one more block is decoded into it. At the end the stretcher is flushed and
    /// drained before the output thread hears that decoding ended.
    private func stretch(
        from decoder: inout any AudioDecoder, itemID: inout UInt64, bounds: inout ItemBounds,
        through stretcher: TimeStretcher
    ) {
        // Media frames fed since the pipeline began: where the next item starts in output time.
        var framesIn = 0
        var ending: PipelineState.DecoderEnd?
        while !state.isHaltRequested {
            // Whole batches only, until the end, and a larger first one: Sonic gives back a few
            // hundred frames per block, and a device started on so little underruns while the
            // next block comes through a thread hand-off.
            let available = stretcher.availableSamples
            let batch = ring.totalWritten == 0 ? Self.firstStretchBatchFrames : Self.stretchBatchFrames
            if available >= batch * stretcher.channels || (ending != nil && available > 0) {
                let region = ring.writableRegion()
                if region.isEmpty {
                    guard waitForOutput() else { return }
                    continue
                }
                commit(stretcher.read(into: region))
                continue
            }
            if let ending { return finish(ending) }
            let allowed = bounds.limit(stretchInput, channels: stretcher.channels)
            var count = allowed.isEmpty || bounds.isInGap ? 0 : decode(from: decoder, into: allowed)
            if count == 0 && bounds.gapFrames > 0 {
                // The gap goes through the stretcher as silence: it lasts as long as the phrase
                // before it does at this rate, and the phrase's last output is not cut off.
                let boundary = max(
                    stretcher.outputSample(forInputFrames: framesIn), segments[segments.count - 1].startSample)
                guard beginGap(&bounds, itemID: itemID, atSample: boundary) else { return }
                let silence = UnsafeMutableBufferPointer(
                    rebasing: stretchInput.prefix(bounds.gapFrames * stretcher.channels))
                silence.update(repeating: 0)
                bounds.gapFrames -= silence.count / stretcher.channels
                count = silence.count
            }
            if count > 0 {
                if !bounds.isInGap { bounds.frame += count / stretcher.channels }
                if stretcher.write(UnsafeMutableBufferPointer(rebasing: stretchInput[..<count])) {
                    framesIn += count / stretcher.channels
                } else {
                    // Sonic could not grow its buffer: end here, as a read error would.
                    state.itemsCutShort.add(1, ordering: .relaxed)
                    upcoming.close()
                    stretcher.flush()
                    ending = .endOfQueue
                }
                continue
            }
            let boundary = max(
                stretcher.outputSample(forInputFrames: framesIn), segments[segments.count - 1].startSample)
            switch nextDecoder(format: decoder.format, startSample: boundary) {
            case .item(let nextID, let next, let nextBounds):
                (itemID, decoder, bounds) = (nextID, next, nextBounds)
            case .end(let end):
                stretcher.flush()
                ending = end
            case .halted:
                return
            }
        }
    }

    /// Stretched frames handed to the ring at a time (about 93 ms at 44.1 kHz).
    static var stretchBatchFrames: Int { 4096 }
    /// The first batch, which the device starts on (about 370 ms at 44.1 kHz; decoding and
    /// stretching it takes a few milliseconds).
    static var firstStretchBatchFrames: Int { 16384 }

    /// Reads the next samples; 0 at the item's end, or on an error part-way, which ends the
    /// item where its data ran out (the engine reports it).
    private func decode(from decoder: any AudioDecoder, into buffer: UnsafeMutableBufferPointer<Sample>) -> Int {
        do {
            return try Sample.read(from: decoder, into: buffer)
        } catch {
            cutShort(error)
            return 0
        }
    }

    /// Counts an item that ended early because of `error`, for the engine to report.
    private func cutShort(_ error: DecoderError) {
        state.cutShortReason.withLock { $0 = error }
        state.itemsCutShort.add(1, ordering: .relaxed)
    }

    /// Publishes `count` samples written into the ring's free space.
    private func commit(_ count: Int) {
        ring.commit(count)
        if state.outputWaitingForData.exchange(false, ordering: .acquiringAndReleasing) {
            outputWake.signal()
        }
    }

    /// Opens the next upcoming item and logs its segment from `startSample`, passing over
    /// items that cannot be opened.
    private func nextDecoder(format: AudioFormat, startSample: Int) -> Next {
        switch openNext(format: format) {
        case .opened(let item, let decoder, let firstFrame):
            while !segments.hasRoom {
                guard waitForOutput() else { return .halted }
            }
            var segment = segment(of: item, firstFrame: firstFrame)
            segment.startSample = startSample
            segments.append(segment)
            upcoming.noteSegmentStarted()
            return .item(item.id, decoder, ItemBounds(item: item, frame: firstFrame))
        case .end(let end):
            return .end(end)
        }
    }

    /// What opening the next upcoming item found.
    private enum Opened {
        case opened(EngineItem, any AudioDecoder, firstFrame: Int)
        case end(PipelineState.DecoderEnd)
    }

    /// `item`'s segment from `firstFrame`, its start not known yet.
    private func segment(of item: EngineItem, firstFrame: Int) -> SegmentLog.Segment {
        .init(
            itemID: item.id, startSample: 0, firstFrame: firstFrame, gain: item.gain, mark: item.mark,
            endFrame: item.endFrame)
    }

    /// Opens the next upcoming item of `format` (at its start frame), passing over items that
    /// cannot be opened; its segment is not logged.
    private func openNext(format: AudioFormat) -> Opened {
        while let item = upcoming.next() {
            guard var decoder = try? openItem(item) else {
                state.skippedItems.add(1, ordering: .relaxed)
                continue
            }
            var firstFrame = 0
            if item.startFrame > 0 {
                // A bookmark: a seek that fails plays the item from its start.
                firstFrame = (try? decoder.seek(toFrame: item.startFrame)) ?? 0
                if firstFrame == 0, let reopened = try? openItem(item) { decoder = reopened }
            }
            guard decoder.format == format else {
                state.formatChangeItem.store(item.id, ordering: .relaxed)
                upcoming.close()
                return .end(.formatChange)
            }
            return .opened(item, decoder, firstFrame: firstFrame)
        }
        upcoming.close()
        return .end(.endOfQueue)
    }

    /// Where decoding of the item stops for a fade into the next one: `fadeFrames` 0 until the
    /// item's end is within reach of the longest fade (decoding stops at the reach, to look
    /// again), then the next item's fade, when it has one. Nil for an item of unknown length
    /// (a stream fades in but never out), in a gap, beyond stereo, or when stretching.
    private func holdPoint(_ decoder: any AudioDecoder, _ bounds: ItemBounds, _ transition: Transition<Sample>)
        -> (frame: Int, fadeFrames: Int, skipsSilence: Bool)?
    {
        guard stretcher == nil, transition.channels <= 2, bounds.gapFrames == 0,
            let end = bounds.end ?? decoder.frameCount
        else { return nil }
        let reach = end - transition.longestHold
        if bounds.frame < reach { return (reach, 0, false) }
        guard let next = upcoming.peek(), next.fadeInFrames > 0 else { return nil }
        let frames = transition.holdFrames(fadeFrames: next.fadeInFrames, skipsSilence: next.fadeSkipsSilence)
        return (max(bounds.frame, end - frames), next.fadeInFrames, next.fadeSkipsSilence)
    }

    /// Writes what `run` holds that fits in `region`, logging its segment first. False when
    /// halted while waiting for room in the segment log.
    private func write(
        _ run: Transition<Sample>.Run, into region: UnsafeMutableBufferPointer<Sample>,
        of transition: Transition<Sample>
    ) -> Bool {
        if var segment = run.segment {
            while !segments.hasRoom {
                guard waitForOutput() else { return false }
            }
            segment.startSample = ring.totalWritten
            segments.append(segment)
            upcoming.noteSegmentStarted()
        }
        let count = min(region.count, run.samples.count)
        if count > 0, let source = run.samples.baseAddress {
            region.baseAddress!.update(from: source, count: count)
            commit(count)
        }
        transition.wrote(count)
        return true
    }

    /// Tells the output thread that everything is decoded: once the ring is empty it plays out.
    private func finish(_ end: PipelineState.DecoderEnd) {
        state.decoderEnd.store(end.rawValue, ordering: .releasing)
        outputWake.signal()
    }

    /// The silence after the item's samples begins at `sample`: a segment of its own, whose
    /// position holds where the samples ended. False when halted.
    private func beginGap(_ bounds: inout ItemBounds, itemID: UInt64, atSample sample: Int) -> Bool {
        guard !bounds.isInGap else { return true }
        while !segments.hasRoom {
            guard waitForOutput() else { return false }
        }
        let last = segments[segments.count - 1]
        segments.append(
            .init(
                itemID: itemID, startSample: sample, firstFrame: bounds.frame, gain: last.gain, mark: bounds.mark,
                endFrame: bounds.frame, isGap: true))
        upcoming.noteSegmentStarted()
        bounds.isInGap = true
        return true
    }

    /// Where decoding stands in an item and where it is to stop: an A-B loop's pass or a
    /// phrase ends before the item does, and a phrase has silence after it.
    struct ItemBounds {
        /// The next frame decoded, within the item.
        var frame: Int
        /// The frame decoding stops before; nil at the item's end.
        var end: Int?
        /// Frames of silence still to write after the item's samples.
        var gapFrames: Int
        /// The item's `EngineItem.mark`.
        let mark: Int
        /// Whether the item's samples have ended and its gap is being written.
        var isInGap = false

        init(item: EngineItem, frame: Int) {
            self.frame = frame
            end = item.endFrame
            gapFrames = item.gapFrames
            mark = item.mark
        }

        /// `buffer` cut to the frames left before `end`.
        func limit(_ buffer: UnsafeMutableBufferPointer<Sample>, channels: Int) -> UnsafeMutableBufferPointer<Sample> {
            guard let end else { return buffer }
            return UnsafeMutableBufferPointer(rebasing: buffer.prefix(max(0, end - frame) * channels))
        }
    }

    /// Sleeps until the output thread frees space; false when halted.
    private func waitForOutput() -> Bool {
        state.decoderWaitingForSpace.store(true, ordering: .sequentiallyConsistent)
        if ring.writableCount == 0 || !segments.hasRoom, !state.isHaltRequested {
            decoderWake.wait()
        }
        state.decoderWaitingForSpace.store(false, ordering: .relaxed)
        return !state.isHaltRequested
    }
}
