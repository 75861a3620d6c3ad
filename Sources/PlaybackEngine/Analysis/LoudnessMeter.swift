import CDecoderLibraries
import PlaybackModel

/// Why a loudness cannot be measured.
public enum LoudnessError: Error, Equatable, CustomStringConvertible {
    /// libebur128 (`libebur128.so.1`, Debian's libebur128-1) is not installed.
    case libraryMissing
    /// A signal libebur128 takes no meter for (no channels, a rate of 0).
    case unsupportedFormat(String)
    /// The file could not be opened, or failed before a frame was decoded.
    case decoding(DecoderError)

    public var description: String {
        switch self {
        case .libraryMissing: "libebur128 (libebur128.so.1) is not installed"
        case .unsupportedFormat(let format): "no loudness meter for \(format)"
        case .decoding(let error): error.description
        }
    }
}

/// Measures one signal's loudness per ITU-R BS.1770-4 with libebur128 (the reference
/// implementation; loaded on first use): the K-weighted, gated loudness over the whole signal
/// and its sample peak, at the signal's own rate and channel count. Its channels are in the
/// engine's WAVE order and weighted as BS.1770 says (LFE not counted, surrounds by 1.41).
/// Meters of several files together give an album's loudness (`albumLoudness`).
public final class LoudnessMeter {
    public let channels: Int
    public let sampleRate: Int
    /// Whether `peak` is the true peak (4x oversampled, BS.1770 annex 2) rather than the
    /// highest sample.
    public let truePeak: Bool
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// A meter of `channels` channels at `sampleRate`.
    public init(channels: Int, sampleRate: Int, truePeak: Bool = false) throws(LoudnessError) {
        guard playbackd_ebur128_load() == 1 else { throw .libraryMissing }
        guard channels > 0, channels <= 64, sampleRate > 0 else {
            throw .unsupportedFormat("\(channels) channels at \(sampleRate) Hz")
        }
        let peakMode = truePeak ? EBUR128_MODE_TRUE_PEAK : EBUR128_MODE_SAMPLE_PEAK
        let mode = Int32(EBUR128_MODE_I.rawValue | peakMode.rawValue)
        guard let state = playbackd_ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw .unsupportedFormat("\(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        self.channels = channels
        self.sampleRate = sampleRate
        self.truePeak = truePeak
        for (index, weight) in Self.channelMap(channels).enumerated() {
            _ = playbackd_ebur128_set_channel(state, UInt32(index), Int32(weight.rawValue))
        }
    }

    deinit { playbackd_ebur128_destroy(&state) }

    /// What each channel of a WAVE-order frame is to BS.1770 (the engine's order,
    /// `ChannelOrder`): front left and right, centre, LFE (not counted), back, then side.
    static func channelMap(_ channels: Int) -> [channel] {
        switch channels {
        case 1: [EBUR128_LEFT]  // mono counts once, as a front channel
        case 4: [EBUR128_LEFT, EBUR128_RIGHT, EBUR128_LEFT_SURROUND, EBUR128_RIGHT_SURROUND]
        case 5: [EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_LEFT_SURROUND, EBUR128_RIGHT_SURROUND]
        case 7:
            [EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_UNUSED, EBUR128_Mp180, EBUR128_Mp090, EBUR128_Mm090]
        case 8:
            [
                EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_UNUSED, EBUR128_Mp135, EBUR128_Mm135,
                EBUR128_Mp090, EBUR128_Mm090,
            ]
        default:
            // Stereo, 3.0 and 5.1; channels past the eighth are not counted.
            Array(
                [
                    EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_UNUSED, EBUR128_LEFT_SURROUND,
                    EBUR128_RIGHT_SURROUND,
                ]
                .prefix(channels)) + Array(repeating: EBUR128_UNUSED, count: max(0, channels - 6))
        }
    }

    /// Adds whole frames of 16-bit samples.
    public func add(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress else { return }
        _ = playbackd_ebur128_add_frames_short(state, base, samples.count / channels)
    }

    /// Adds whole frames of 32-bit samples (the value at the top).
    public func add(_ samples: UnsafeBufferPointer<Int32>) {
        guard let base = samples.baseAddress else { return }
        _ = playbackd_ebur128_add_frames_int(state, base, samples.count / channels)
    }

    /// The loudness of everything added so far.
    public var loudness: Loudness {
        var integrated = -Double.infinity
        _ = playbackd_ebur128_loudness_global(state, &integrated)
        return Loudness(integrated: integrated.isFinite ? integrated : nil, peak: peak)
    }

    /// The highest peak of any channel.
    private var peak: Double {
        (0..<channels).reduce(0) { highest, channel in
            var value = 0.0
            if truePeak {
                _ = playbackd_ebur128_true_peak(state, UInt32(channel), &value)
            } else {
                _ = playbackd_ebur128_sample_peak(state, UInt32(channel), &value)
            }
            return value.isFinite ? max(highest, value) : highest
        }
    }

    /// The loudness of `meters`' signals heard one after another (an album), gated over all
    /// their blocks together as EBU R128 says, not an average of each one's; nil when all
    /// are silent or there are none.
    public static func albumLoudness(_ meters: [LoudnessMeter]) -> Double? {
        // No meter, and libebur128 may never have been loaded (every file failed to open).
        guard !meters.isEmpty else { return nil }
        var states = meters.map(\.state)
        var integrated = -Double.infinity
        _ = states.withUnsafeMutableBufferPointer {
            playbackd_ebur128_loudness_global_multiple($0.baseAddress, $0.count, &integrated)
        }
        return integrated.isFinite ? integrated : nil
    }
}
