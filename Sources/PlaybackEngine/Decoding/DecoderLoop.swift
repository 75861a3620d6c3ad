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
            if let (count, segment) = transitionStep(transition, into: region, reading: decoder, &bounds) {
                if let segment { guard log(segment, at: ring.totalWritten) else { return } }
                if count > 0 { commit(count) }
                continue
            }
            if let ending { return finish(ending) }
            let hold = holdPoint(decoder, bounds, transition)
            let allowed = limit(
                bounds.limit(region, channels: channels), to: hold, from: bounds.frame, channels: channels)
            let count =
                allowed.isEmpty || bounds.isInGap || transition.isHolding ? 0 : decode(from: decoder, into: allowed)
            if count > 0 {
                bounds.frame += count / channels
                commit(count)
                continue
            }
            if holdIfDue(hold, transition, decoder, &bounds) { continue }
            if transition.isHolding {
                switch crossOver(from: decoder, transition) {
                case .item(let nextID, let next, let nextBounds): (itemID, decoder, bounds) = (nextID, next, nextBounds)
                case .end(let end): ending = end
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
        // The end found while a held end still goes through the stretcher.
        var endAfterTransition: PipelineState.DecoderEnd?
        let transition = Transition<Sample>(channels: stretcher.channels, sampleRate: decoder.format.sampleRate)
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
            let boundary = max(
                stretcher.outputSample(forInputFrames: framesIn), segments[segments.count - 1].startSample)
            if let (count, segment) = transitionStep(transition, into: stretchInput, reading: decoder, &bounds) {
                if let segment { guard log(segment, at: boundary) else { return } }
                if count > 0 && !feed(stretcher, count, framesIn: &framesIn) { ending = .endOfQueue }
                continue
            }
            if let end = endAfterTransition {
                stretcher.flush()
                ending = end
                continue
            }
            let hold = holdPoint(decoder, bounds, transition)
            let allowed = limit(
                bounds.limit(stretchInput, channels: stretcher.channels), to: hold, from: bounds.frame,
                channels: stretcher.channels)
            var count =
                allowed.isEmpty || bounds.isInGap || transition.isHolding ? 0 : decode(from: decoder, into: allowed)
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
                if !feed(stretcher, count, framesIn: &framesIn) { ending = .endOfQueue }
                continue
            }
            if holdIfDue(hold, transition, decoder, &bounds) { continue }
            if transition.isHolding {
                switch crossOver(from: decoder, transition) {
                case .item(let nextID, let next, let nextBounds): (itemID, decoder, bounds) = (nextID, next, nextBounds)
                case .end(let end): endAfterTransition = end
                }
                continue
            }
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

    /// Feeds the first `count` samples of `stretchInput` to the stretcher. False when Sonic
    /// could not grow its buffer: the pipeline ends there, as at a read error.
    private func feed(_ stretcher: TimeStretcher, _ count: Int, framesIn: inout Int) -> Bool {
        guard stretcher.write(UnsafeMutableBufferPointer(rebasing: stretchInput[..<count])) else {
            state.itemsCutShort.add(1, ordering: .relaxed)
            upcoming.close()
            stretcher.flush()
            return false
        }
        framesIn += count / stretcher.channels
        return true
    }

    /// Stretched frames handed to the ring at a time (about 93 ms at 44.1 kHz).
    static var stretchBatchFrames: Int { 4096 }
    /// The first batch, which the device starts on (about 370 ms at 44.1 kHz; decoding and
    /// stretching it takes a few milliseconds).
    static var firstStretchBatchFrames: Int { 16384 }

    /// Reads the next samples; 0 at the item's end, or on an error part-way, which ends the
    /// item where its data ran out (the engine reports it).
    func decode(from decoder: any AudioDecoder, into buffer: UnsafeMutableBufferPointer<Sample>) -> Int {
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
            guard log(segment(of: item, firstFrame: firstFrame), at: startSample) else { return .halted }
            return .item(item.id, decoder, ItemBounds(item: item, frame: firstFrame))
        case .end(let end):
            return .end(end)
        }
    }

    /// What opening the next upcoming item found.
    enum Opened {
        case opened(EngineItem, any AudioDecoder, firstFrame: Int)
        case end(PipelineState.DecoderEnd)
    }

    /// `item`'s segment from `firstFrame`, its start not known yet.
    func segment(of item: EngineItem, firstFrame: Int) -> SegmentLog.Segment {
        .init(
            itemID: item.id, startSample: 0, firstFrame: firstFrame, gain: item.gain, mark: item.mark,
            endFrame: item.endFrame)
    }

    /// Opens the next upcoming item of `format` (at its start frame), passing over items that
    /// cannot be opened; its segment is not logged.
    func openNext(format: AudioFormat) -> Opened {
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

    /// Tells the output thread that everything is decoded: once the ring is empty it plays out.
    private func finish(_ end: PipelineState.DecoderEnd) {
        state.decoderEnd.store(end.rawValue, ordering: .releasing)
        outputWake.signal()
    }

    /// The silence after the item's samples begins at `sample`: a segment of its own, whose
    /// position holds where the samples ended. False when halted.
    private func beginGap(_ bounds: inout ItemBounds, itemID: UInt64, atSample sample: Int) -> Bool {
        guard !bounds.isInGap else { return true }
        let gap = SegmentLog.Segment(
            itemID: itemID, startSample: sample, firstFrame: bounds.frame, gain: segments[segments.count - 1].gain,
            mark: bounds.mark, endFrame: bounds.frame, isGap: true)
        guard log(gap, at: sample) else { return false }
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
    func waitForOutput() -> Bool {
        state.decoderWaitingForSpace.store(true, ordering: .sequentiallyConsistent)
        if ring.writableCount == 0 || !segments.hasRoom, !state.isHaltRequested {
            decoderWake.wait()
        }
        state.decoderWaitingForSpace.store(false, ordering: .relaxed)
        return !state.isHaltRequested
    }
}
