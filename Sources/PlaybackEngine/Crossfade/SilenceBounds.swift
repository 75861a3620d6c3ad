#if canImport(Glibc)
    import Glibc
#endif

/// Where the sound of a run of samples begins and ends, for a crossfade that starts where the
/// outgoing item's music ends and the incoming item's begins (MixRamp's idea, measured rather
/// than read from tags). The level is the phrase analysis's measure: the mean square of all
/// channels over windows of `windowSeconds`; a window below `thresholdDB` (full scale 0 dB)
/// is silence. At most `longestSeconds` of silence is passed over at either end.
enum SilenceBounds {
    static let windowSeconds = 0.01
    static let thresholdDB = -60.0
    static let longestSeconds = 10.0

    /// The mean square below which a window is silence (full scale 1).
    static let threshold = pow(10, thresholdDB / 10)

    /// The frame after the last window of `frames` frames with sound, windows counted from the
    /// first frame; 0 when there is none.
    static func soundEnd<Sample: PCMSample>(
        _ samples: UnsafePointer<Sample>, frames: Int, channels: Int, sampleRate: Int
    ) -> Int {
        let window = windowFrames(sampleRate)
        var start = (frames - 1) / window * window
        while start >= 0 {
            let end = min(start + window, frames)
            if isSound(samples + start * channels, frames: end - start, channels: channels) { return end }
            start -= window
        }
        return 0
    }

    /// The first frame of the first window with sound within `frames` frames; `frames` when
    /// there is none.
    static func soundStart<Sample: PCMSample>(
        _ samples: UnsafePointer<Sample>, frames: Int, channels: Int, sampleRate: Int
    ) -> Int {
        let window = windowFrames(sampleRate)
        var start = 0
        while start < frames {
            let count = min(window, frames - start)
            if isSound(samples + start * channels, frames: count, channels: channels) { return start }
            start += window
        }
        return frames
    }

    /// The most frames of silence passed over at `sampleRate`.
    static func longestFrames(_ sampleRate: Int) -> Int { Int(longestSeconds * Double(sampleRate)) }

    private static func windowFrames(_ sampleRate: Int) -> Int { max(1, Int(windowSeconds * Double(sampleRate))) }

    private static func isSound<Sample: PCMSample>(_ samples: UnsafePointer<Sample>, frames: Int, channels: Int)
        -> Bool
    {
        let count = frames * channels
        let scale = 1 / Double(Sample.max)
        var sum = 0.0
        for index in 0..<count {
            let value = Double(samples[index]) * scale
            sum += value * value
        }
        return sum / Double(count) >= threshold
    }
}
