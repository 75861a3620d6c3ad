/// The decoder thread's side of an item boundary that crossfades. When the fade is near, the
/// outgoing item's last samples are read and held (`hold`): what comes before the fade goes to
/// the ring at once, the rest waits. Once the incoming item is open (`fade`), the overlap is
/// mixed a block at a time as the incoming item is read (`mixNext`), so a live stream fading in
/// is mixed at its own pace: a segment of the incoming item at gain 1 (each side's gain is in
/// the mix), then a segment at its own gain for the rest. What goes into the ring, in order,
/// is `runs`. The memory is allocated on the decoder thread when a fade is coming and freed
/// when its last run is in the ring.
final class Transition<Sample: PCMSample> {
    /// Samples to write, after logging `segment` (its `startSample` is set when written).
    struct Run {
        var samples: UnsafeMutableBufferPointer<Sample>
        var segment: SegmentLog.Segment?
    }

    /// The outgoing item's held end: frames `fadeStart..<musicEnd` fade; after `musicEnd`,
    /// trailing silence, dropped by a fade.
    private struct Held {
        var samples: UnsafeMutableBufferPointer<Sample>
        var frames: Int
        var fadeStart: Int
        var musicEnd: Int
        var skipsSilence: Bool
    }

    /// An overlap being mixed: `done` of `held.musicEnd - held.fadeStart` frames.
    private struct Mixing {
        var held: Held
        var done = 0
        /// The incoming item's frames read while its sound's start was looked for, from
        /// `soundStart` on: mixed first.
        var head: UnsafeMutableBufferPointer<Sample>
        var headFrames: Int
        var soundStart: Int
        var outgoingGain: Double
        var incoming: SegmentLog.Segment

        var overlap: Int { held.musicEnd - held.fadeStart }
    }

    let channels: Int
    let sampleRate: Int
    private(set) var runs: [Run] = []
    private var held: Held?
    private var mixing: Mixing?
    private var storage: [UnsafeMutableBufferPointer<Sample>] = []
    private var mixer: CrossfadeMixer?
    private var block = UnsafeMutableBufferPointer<Sample>(start: nil, count: 0)

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit { release() }

    /// Whether the outgoing item's end is held, waiting for the incoming item.
    var isHolding: Bool { held != nil }
    /// Whether an overlap is being mixed (`mixNext`).
    var isMixing: Bool { mixing != nil }

    /// The frames of an item's end to hold for a fade of `fadeFrames` into the next item.
    func holdFrames(fadeFrames: Int, skipsSilence: Bool) -> Int {
        fadeFrames + (skipsSilence ? SilenceBounds.longestFrames(sampleRate) : 0)
    }

    /// The most frames any fade holds (the reach within which the decoder looks ahead).
    var longestHold: Int {
        holdFrames(fadeFrames: Int(CrossfadeCurve.longestSeconds * Double(sampleRate)), skipsSilence: true)
    }

    /// Decodes the rest of the outgoing item with `read`: `frames` frames when `isExact` (it
    /// ends at a frame it was given), else about as many (the decoder's length). What comes
    /// before the fade of `fadeFrames` (from where the music ends, when `skipsSilence`) goes
    /// to the ring; the rest is held. Returns the frames read.
    func hold(
        frames: Int, isExact: Bool, fadeFrames: Int, skipsSilence: Bool,
        read: (UnsafeMutableBufferPointer<Sample>) -> Int
    ) -> Int {
        // A second more than the decoder's length says, for a length that is an estimate.
        let buffer = allocate(frames: frames + (isExact ? 0 : sampleRate))
        let count = fill(buffer, read: read) / channels
        var musicEnd = count
        if skipsSilence, let base = buffer.baseAddress {
            let end = SilenceBounds.soundEnd(base, frames: count, channels: channels, sampleRate: sampleRate)
            musicEnd = max(end, count - SilenceBounds.longestFrames(sampleRate))
        }
        let fadeStart = max(0, musicEnd - fadeFrames)
        runs.append(Run(samples: slice(buffer, 0..<fadeStart), segment: nil))
        held = Held(
            samples: buffer, frames: count, fadeStart: fadeStart, musicEnd: musicEnd, skipsSilence: skipsSilence)
        return count
    }

    /// The held end goes into the ring as it is (the next item does not fade, or nothing
    /// follows), then `next`'s segment when given.
    func release(before next: SegmentLog.Segment?) {
        if let held {
            runs.append(Run(samples: slice(held.samples, held.fadeStart..<held.frames), segment: nil))
            self.held = nil
        }
        if let next { runs.append(Run(samples: .init(start: nil, count: 0), segment: next)) }
    }

    /// Begins the fade from the held end into the incoming item (`segment`: its segment as it
    /// would begin without a fade, at its own gain), reading it with `read`. Its leading
    /// silence is looked for first (when the held end's was, and it has a length: a live
    /// stream is not read ahead). Returns the frames read.
    func fade(
        into segment: SegmentLog.Segment, outgoingGain: Double, hasLength: Bool,
        read: (UnsafeMutableBufferPointer<Sample>) -> Int
    ) -> Int {
        guard let held else { preconditionFailure("a fade without a held end") }
        self.held = nil
        var head = UnsafeMutableBufferPointer<Sample>(start: nil, count: 0)
        var (headFrames, soundStart) = (0, 0)
        if held.skipsSilence && hasLength {
            head = allocate(frames: SilenceBounds.longestFrames(sampleRate))
            headFrames = fill(head, read: read) / channels
            if let base = head.baseAddress {
                soundStart = SilenceBounds.soundStart(
                    base, frames: headFrames, channels: channels, sampleRate: sampleRate)
            }
            // Nothing but silence: the item is not passed over, only its silence up to the limit.
            if soundStart == headFrames && headFrames < head.count / channels { soundStart = 0 }
        }
        mixing = Mixing(
            held: held, head: head, headFrames: headFrames, soundStart: soundStart, outgoingGain: outgoingGain,
            incoming: segment)
        if mixer == nil { mixer = CrossfadeMixer() }
        if block.count == 0 { block = allocate(frames: CrossfadeMixer.blockFrames) }
        return headFrames
    }

    /// Mixes the next block of the overlap, reading the incoming item with `read` once what
    /// was read ahead is used (silence once it ends), and queues it as a run. Returns the
    /// frames read.
    func mixNext(read: (UnsafeMutableBufferPointer<Sample>) -> Int) -> Int {
        guard var state = mixing, let mixer, let tail = state.held.samples.baseAddress, let incoming = block.baseAddress
        else { return 0 }
        let count = min(CrossfadeMixer.blockFrames, state.overlap - state.done)
        // The incoming frames: first those read ahead, then from the decoder.
        let ahead = max(0, min(count, state.headFrames - state.soundStart - state.done))
        if ahead > 0, let head = state.head.baseAddress {
            incoming.update(from: head + (state.soundStart + state.done) * channels, count: ahead * channels)
        }
        let wanted = UnsafeMutableBufferPointer(rebasing: block[(ahead * channels)..<(count * channels)])
        let got = fill(wanted, read: read)
        (incoming + ahead * channels + got).update(repeating: 0, count: wanted.count - got)
        let outgoing = tail + (state.held.fadeStart + state.done) * channels
        mixer.mix(
            outgoing: outgoing, gain: state.outgoingGain, incoming: incoming, gain: state.incoming.gain,
            frames: count, at: state.done, of: state.overlap, channels: channels, into: outgoing)
        var mixed: SegmentLog.Segment?
        if state.done == 0 {
            mixed = state.incoming
            mixed!.firstFrame += state.soundStart
            mixed!.gain = 1
        }
        runs.append(Run(samples: UnsafeMutableBufferPointer(start: outgoing, count: count * channels), segment: mixed))
        state.done += count
        if state.done < state.overlap {
            mixing = state
            return got / channels
        }
        // The overlap is mixed: the incoming item at its own gain, from what was read ahead.
        var rest = state.incoming
        rest.firstFrame += state.soundStart + state.overlap
        let restStart = min(state.headFrames, state.soundStart + state.overlap)
        runs.append(Run(samples: slice(state.head, restStart..<state.headFrames), segment: rest))
        mixing = nil
        return got / channels
    }

    /// The first run's samples were written up to `count`; its segment was logged.
    func wrote(_ count: Int) {
        runs[0].segment = nil
        runs[0].samples = UnsafeMutableBufferPointer(rebasing: runs[0].samples[count...])
        guard runs[0].samples.isEmpty else { return }
        runs.removeFirst()
        if runs.isEmpty && held == nil && mixing == nil { release() }
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

    private func slice(_ buffer: UnsafeMutableBufferPointer<Sample>, _ frames: Range<Int>)
        -> UnsafeMutableBufferPointer<Sample>
    {
        guard !frames.isEmpty else { return .init(start: nil, count: 0) }
        return UnsafeMutableBufferPointer(
            rebasing: buffer[(frames.lowerBound * channels)..<(frames.upperBound * channels)])
    }

    private func release() {
        for buffer in storage { buffer.deallocate() }
        storage = []
        block = .init(start: nil, count: 0)
        mixer = nil
    }
}
