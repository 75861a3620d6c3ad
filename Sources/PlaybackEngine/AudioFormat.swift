/// The PCM format carried through the engine: signed 16-bit little-endian interleaved
/// samples at the file's own rate and channel count.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "S16_LE \(sampleRate) Hz \(channels) ch" }
}
