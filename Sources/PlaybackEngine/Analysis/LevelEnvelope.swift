import PlaybackModel

/// An item's level over short windows, measured from its decoded samples for the phrase
/// detector (`PhraseDetector`): one mean square per window (full scale 1), of all channels.
/// Filled in pieces, in any order, so the part about to play can be measured first.
public struct LevelEnvelope: Sendable {
    /// Frames per window.
    public let windowFrames: Int
    public let sampleRate: Int
    /// One per window of the item; windows not measured yet hold 0.
    public private(set) var meanSquares: [Float]

    /// An envelope of `frameCount` frames at `sampleRate`, windows of about `windowSeconds`.
    public init(frameCount: Int, sampleRate: Int, windowSeconds: Double) {
        self.sampleRate = sampleRate
        windowFrames = max(1, FrameTime.frames(windowSeconds, rate: sampleRate))
        meanSquares = Array(repeating: 0, count: (frameCount + windowFrames - 1) / windowFrames)
    }

    /// The exact length of a window, seconds.
    public var windowSeconds: Double { FrameTime.seconds(windowFrames, rate: sampleRate) }

    /// The window `frame` is in.
    public func window(at frame: Int) -> Int { frame / windowFrames }

    /// Decodes `decoder` from the start of window `first` up to window `last` (exclusive; at
    /// most the item's end) and measures each window, calling `progress` with the window
    /// reached and the levels so far every `progressEvery` windows; stops early, returning the window reached, when
    /// `isCancelled` says so or the item ends.
    public mutating func measure(
        _ decoder: any AudioDecoder, windows range: Range<Int>, progressEvery: Int = 1 << 12,
        isCancelled: () -> Bool, progress: (_ reached: Int, _ meanSquares: [Float]) -> Void
    ) throws(DecoderError) -> Int {
        let channels = decoder.format.channels
        let first = range.lowerBound
        if first > 0 { _ = try decoder.seek(toFrame: first * windowFrames) }
        let bufferFrames = windowFrames * 64
        var buffer = [Int16](repeating: 0, count: bufferFrames * channels)
        var window = first
        var sum: Float = 0
        var framesInWindow = 0
        let scale = 1 / (Float(Int16.max) * Float(Int16.max) * Float(channels * windowFrames))
        let last = min(range.upperBound, meanSquares.count)
        while window < last {
            if isCancelled() { return window }
            let count = try buffer.withUnsafeMutableBufferPointer { samples throws(DecoderError) in
                try decoder.read(into: samples)
            }
            if count == 0 { break }
            var index = 0
            while index < count && window < last {
                let take = min((windowFrames - framesInWindow) * channels, count - index)
                sum += Self.sumOfSquares(buffer, from: index, count: take)
                index += take
                framesInWindow += take / channels
                if framesInWindow == windowFrames {
                    meanSquares[window] = sum * scale
                    (sum, framesInWindow) = (0, 0)
                    window += 1
                    if (window - first) % progressEvery == 0 { progress(window, meanSquares) }
                }
            }
        }
        if framesInWindow > 0 && window < meanSquares.count {
            // The item's last, shorter window: scaled as a whole one would be.
            meanSquares[window] = sum * scale * Float(windowFrames) / Float(framesInWindow)
            window += 1
        }
        return window
    }

    /// The sum of squares of `count` samples from `start`, in four lanes the compiler
    /// vectorizes.
    private static func sumOfSquares(_ samples: [Int16], from start: Int, count: Int) -> Float {
        samples.withUnsafeBufferPointer { samples in
            var lanes = SIMD4<Float>()
            var index = start
            let end = start + count
            while index + 4 <= end {
                let vector = SIMD4<Float>(
                    Float(samples[index]), Float(samples[index + 1]), Float(samples[index + 2]),
                    Float(samples[index + 3]))
                lanes += vector * vector
                index += 4
            }
            var sum = lanes.sum()
            while index < end {
                let value = Float(samples[index])
                sum += value * value
                index += 1
            }
            return sum
        }
    }
}
