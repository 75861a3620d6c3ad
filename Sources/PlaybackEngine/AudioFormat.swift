/// How one sample is stored on its way through the engine (the ring, the sound chain and the
/// device), chosen per item from what its decoder delivers.
public enum SampleFormat: Sendable, Hashable {
    /// Signed 16-bit: every source of 16 bits or fewer, and the lossy formats (their decoders'
    /// 16-bit output is what the reference decoders write).
    case s16
    /// Signed 32-bit with the value at the top: sources of 17 to 32 bits (24-bit FLAC, ALAC,
    /// WAV), every bit kept, the bits below the source's own zero.
    case s32

    /// Bytes one sample takes.
    public var bytes: Int {
        switch self {
        case .s16: 2
        case .s32: 4
        }
    }

    /// ALSA's name for it (as `aplay` and the device's own parameters say).
    public var name: String {
        switch self {
        case .s16: "S16_LE"
        case .s32: "S32_LE"
        }
    }
}

/// The PCM format carried through the engine: interleaved little-endian samples of
/// `sampleFormat`, at the file's own rate and channel count.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat

    public init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat = .s16) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// Bytes one frame takes.
    public var frameBytes: Int { sampleFormat.bytes * channels }

    public var description: String { "\(sampleFormat.name) \(sampleRate) Hz \(channels) ch" }
}
