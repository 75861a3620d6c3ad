/// The decoder loops' side of a crossfade (`Transition`), shared by the loop at rate 1 (into
/// the ring) and the loop through the stretcher (into its input, so a fade lasts its seconds
/// of listening time at any rate).
extension DecoderLoop {
    /// Where decoding of the item stops for a fade into the next one: `fadeFrames` 0 until the
    /// item's end is within reach of the longest fade (decoding stops at the reach, to look
    /// again), then the next item's fade, when it has one. Nil for an item of unknown length
    /// (a stream fades in but never out), in a gap, or beyond stereo.
    struct HoldPoint {
        var frame: Int
        var fadeFrames: Int
        var skipsSilence: Bool
    }

    func holdPoint(_ decoder: any AudioDecoder, _ bounds: ItemBounds, _ transition: Transition<Sample>) -> HoldPoint? {
        guard !transition.isHolding, !transition.isMixing, transition.channels <= 2, bounds.gapFrames == 0,
            let end = bounds.end ?? decoder.frameCount
        else { return nil }
        let reach = end - transition.longestHold
        if bounds.frame < reach { return HoldPoint(frame: reach, fadeFrames: 0, skipsSilence: false) }
        guard let next = upcoming.peek(), next.fadeInFrames > 0 else { return nil }
        let frames = transition.holdFrames(fadeFrames: next.fadeInFrames, skipsSilence: next.fadeSkipsSilence)
        return HoldPoint(
            frame: max(bounds.frame, end - frames), fadeFrames: next.fadeInFrames, skipsSilence: next.fadeSkipsSilence)
    }

    /// `buffer` cut to the frames before `hold`.
    func limit(_ buffer: UnsafeMutableBufferPointer<Sample>, to hold: HoldPoint?, from frame: Int, channels: Int)
        -> UnsafeMutableBufferPointer<Sample>
    {
        guard let hold else { return buffer }
        return UnsafeMutableBufferPointer(rebasing: buffer.prefix(max(0, hold.frame - frame) * channels))
    }

    /// Holds the rest of the item when decoding has reached `hold` and a fade follows. Whether
    /// it did.
    func holdIfDue(
        _ hold: HoldPoint?, _ transition: Transition<Sample>, _ decoder: any AudioDecoder, _ bounds: inout ItemBounds
    ) -> Bool {
        guard let hold, hold.fadeFrames > 0, bounds.frame >= hold.frame else { return false }
        bounds.frame += transition.hold(
            frames: (bounds.end ?? decoder.frameCount ?? bounds.frame) - bounds.frame, isExact: bounds.end != nil,
            fadeFrames: hold.fadeFrames, skipsSilence: hold.skipsSilence
        ) { decode(from: decoder, into: $0) }
        return true
    }

    /// What crossing over from a held end found: the next item, playing, or the end.
    enum CrossOver {
        case item(UInt64, any AudioDecoder, ItemBounds)
        case end(PipelineState.DecoderEnd)
    }

    /// At the held end of the item: opens the next item and fades into it, or, when it does not
    /// fade (or nothing follows), lets the held end go as it is.
    func crossOver(from decoder: any AudioDecoder, _ transition: Transition<Sample>) -> CrossOver {
        switch openNext(format: decoder.format) {
        case .opened(let item, let next, let firstFrame):
            let segment = self.segment(of: item, firstFrame: firstFrame)
            var frame = firstFrame
            if item.fadeInFrames > 0 {
                let gain = segments[segments.count - 1].gain
                frame += transition.fade(into: segment, outgoingGain: gain, hasLength: next.frameCount != nil) {
                    decode(from: next, into: $0)
                }
            } else {
                transition.release(before: segment)
            }
            return .item(item.id, next, ItemBounds(item: item, frame: frame))
        case .end(let end):
            transition.release(before: nil)
            return .end(end)
        }
    }

    /// The transition's next step: the samples of its next run put in `buffer` (at most its
    /// size), with the segment they begin when they do; or the next block of an overlap mixed
    /// (no samples yet: a run next time). Nil when it has nothing to do.
    func transitionStep(
        _ transition: Transition<Sample>, into buffer: UnsafeMutableBufferPointer<Sample>,
        reading decoder: any AudioDecoder, _ bounds: inout ItemBounds
    ) -> (count: Int, segment: SegmentLog.Segment?)? {
        if let run = transition.runs.first {
            let count = min(buffer.count, run.samples.count)
            if count > 0, let source = run.samples.baseAddress {
                buffer.baseAddress!.update(from: source, count: count)
            }
            transition.wrote(count)
            return (count, run.segment)
        }
        guard transition.isMixing else { return nil }
        bounds.frame += transition.mixNext { decode(from: decoder, into: $0) }
        return (0, nil)
    }

    /// Logs `segment` from ring sample `sample` (an item, a gap, a fade's parts), once the log
    /// has room. False when halted while waiting for it.
    func log(_ segment: SegmentLog.Segment, at sample: Int) -> Bool {
        var segment = segment
        while !segments.hasRoom {
            guard waitForOutput() else { return false }
        }
        segment.startSample = sample
        // The upcoming list learns of the segment first: once it is in the log, the output
        // thread can play it and the event loop name it (`UpcomingItems.replace`).
        upcoming.noteSegmentStarted()
        segments.append(segment)
        return true
    }
}
