/// The decoder thread's side of an item boundary that crossfades: the outgoing item's last
/// samples held back from the ring (`hold`), then, once the incoming item is open, what goes
/// into the ring in order (`runs`): the outgoing item up to where the fade begins, the overlap
/// mixed (a segment of the incoming item at gain 1: each side's gain is in the mix), and the
/// incoming item's first samples read while its leading silence was looked for (a segment at
/// its own gain). The memory is allocated on the decoder thread when a fade is coming and
/// freed when its runs are in the ring.
final class Transition<Sample: PCMSample> {
    /// Samples to write, after logging `segment` (its `startSample` is set when written).
    struct Run {
        var samples: UnsafeMutableBufferPointer<Sample>
        var segment: SegmentLog.Segment?
    }

    /// The outgoing item's held samples and how the fade over them is to go.
    private struct Held {
        var samples: UnsafeMutableBufferPointer<Sample>
        var frames: Int
        var fadeFrames: Int
        var skipsSilence: Bool
    }

    let channels: Int
    let sampleRate: Int
    private(set) var runs: [Run] = []
    private var held: Held?
    private var storage: [UnsafeMutableBufferPointer<Sample>] = []
    private var mixer: CrossfadeMixer?

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit { release() }

    /// Whether the outgoing item's end is held.
    var isHolding: Bool { held != nil }

    /// The frames of an item's end to hold for a fade of `fadeFrames` into the next item.
    func holdFrames(fadeFrames: Int, skipsSilence: Bool) -> Int {
        fadeFrames + (skipsSilence ? SilenceBounds.longestFrames(sampleRate) : 0)
    }

    /// The most frames any fade holds (the reach within which the decoder looks ahead).
    var longestHold: Int {
        holdFrames(fadeFrames: Int(CrossfadeCurve.longestSeconds * Double(sampleRate)), skipsSilence: true)
    }

    /// Decodes the rest of the outgoing item with `read`: `frames` frames when `isExact` (it
    /// ends at a frame it was given), else about as many (the decoder's length), holding it
    /// for a fade of `fadeFrames`. Returns the frames read.
    func hold(
        frames: Int, isExact: Bool, fadeFrames: Int, skipsSilence: Bool,
        read: (UnsafeMutableBufferPointer<Sample>) -> Int
    ) -> Int {
        // A second more than the decoder's length says, for a length that is an estimate.
        let buffer = allocate(frames: frames + (isExact ? 0 : sampleRate))
        let count = fill(buffer, read: read)
        held = Held(samples: buffer, frames: count / channels, fadeFrames: fadeFrames, skipsSilence: skipsSilence)
        return count / channels
    }

    /// The held end goes into the ring as it is (the next item does not fade, or nothing
    /// follows), then `next`'s segment when given.
    func release(before next: SegmentLog.Segment?) {
        if let held {
            runs.append(Run(samples: prefix(held.samples, frames: held.frames), segment: nil))
            self.held = nil
        }
        if let next { runs.append(Run(samples: .init(start: nil, count: 0), segment: next)) }
    }

    /// Fades from the held end into `incoming` (`segment`: its segment as it would begin
    /// without a fade, at `gain`), reading its first samples with `read`. Returns the frame of
    /// the incoming item decoding continues from (relative to `segment.firstFrame`).
    func fade(
        into segment: SegmentLog.Segment, outgoingGain: Double,
        read: (UnsafeMutableBufferPointer<Sample>) -> Int
    ) -> Int {
        guard let held else { preconditionFailure("a fade without a held end") }
        let silence = held.skipsSilence ? SilenceBounds.longestFrames(sampleRate) : 0
        let head = allocate(frames: held.fadeFrames + silence)
        let headFrames = fill(head, read: read) / channels
        guard let tail = held.samples.baseAddress, let first = head.baseAddress else {
            release(before: segment)
            return headFrames
        }
        var musicEnd = held.frames
        var soundStart = 0
        if held.skipsSilence {
            let end = SilenceBounds.soundEnd(tail, frames: held.frames, channels: channels, sampleRate: sampleRate)
            musicEnd = max(end, held.frames - silence)
            let start = SilenceBounds.soundStart(first, frames: headFrames, channels: channels, sampleRate: sampleRate)
            soundStart = min(start, silence, headFrames)
        }
        let overlap = min(held.fadeFrames, musicEnd, headFrames - soundStart)
        guard overlap > 0 else {
            release(before: segment)
            runs.append(Run(samples: prefix(head, frames: headFrames), segment: nil))
            return headFrames
        }
        let fadeStart = musicEnd - overlap
        if mixer == nil { mixer = CrossfadeMixer() }
        mixer!.mix(
            outgoing: tail + fadeStart * channels, gain: outgoingGain, incoming: first + soundStart * channels,
            gain: segment.gain, frames: overlap, channels: channels, into: tail + fadeStart * channels)
        var mixed = segment
        (mixed.firstFrame, mixed.gain) = (segment.firstFrame + soundStart, 1)
        var rest = segment
        rest.firstFrame = segment.firstFrame + soundStart + overlap
        runs.append(Run(samples: prefix(held.samples, frames: fadeStart), segment: nil))
        runs.append(Run(samples: slice(held.samples, fadeStart..<musicEnd), segment: mixed))
        runs.append(Run(samples: slice(head, (soundStart + overlap)..<headFrames), segment: rest))
        self.held = nil
        return headFrames
    }

    /// The first run's samples were written up to `count`; its segment was logged.
    func wrote(_ count: Int) {
        runs[0].segment = nil
        runs[0].samples = UnsafeMutableBufferPointer(rebasing: runs[0].samples[count...])
        guard runs[0].samples.isEmpty else { return }
        runs.removeFirst()
        if runs.isEmpty && held == nil { release() }
    }

    private func fill(_ buffer: UnsafeMutableBufferPointer<Sample>, read: (UnsafeMutableBufferPointer<Sample>) -> Int)
        -> Int
    {
        var count = 0
        while count < buffer.count {
            let got = read(UnsafeMutableBufferPointer(rebasing: buffer[count...]))
            if got == 0 { break }
            count += got
        }
        return count
    }

    private func allocate(frames: Int) -> UnsafeMutableBufferPointer<Sample> {
        let buffer = UnsafeMutableBufferPointer<Sample>.allocate(capacity: max(1, frames) * channels)
        storage.append(buffer)
        return buffer
    }

    private func prefix(_ buffer: UnsafeMutableBufferPointer<Sample>, frames: Int) -> UnsafeMutableBufferPointer<Sample>
    {
        slice(buffer, 0..<frames)
    }

    private func slice(_ buffer: UnsafeMutableBufferPointer<Sample>, _ frames: Range<Int>)
        -> UnsafeMutableBufferPointer<Sample>
    {
        UnsafeMutableBufferPointer(rebasing: buffer[(frames.lowerBound * channels)..<(frames.upperBound * channels)])
    }

    private func release() {
        for buffer in storage { buffer.deallocate() }
        storage = []
        mixer = nil
    }
}
