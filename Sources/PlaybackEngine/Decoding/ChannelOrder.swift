/// The order of channels beyond stereo. The engine carries every item in WAVE order (front
/// left, front right, centre, LFE, back left, back right, side left, side right), which FLAC,
/// WAV and FFmpeg's decoders give; sinks tell the device so. Vorbis and Opus decode in Vorbis
/// order (the Vorbis I specification, section 4.3.9; RFC 7845 uses it for Opus), which their
/// decoders move into WAVE order here. Mono, stereo and four channels are the same in both.
enum ChannelOrder {
    /// For each channel in WAVE order, the channel of a Vorbis-order frame it comes from; nil
    /// when the orders agree.
    static func fromVorbis(channels: Int) -> [Int]? {
        switch channels {
        case 3: [0, 2, 1]  // L C R
        case 5: [0, 2, 1, 3, 4]  // FL FC FR BL BR
        case 6: [0, 2, 1, 5, 3, 4]  // FL FC FR BL BR LFE
        case 7: [0, 2, 1, 6, 5, 3, 4]  // FL FC FR SL SR BC LFE
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]  // FL FC FR SL SR BL BR LFE
        default: nil
        }
    }

    /// Rearranges each frame of `samples` (whole frames of `map.count` channels): channel `i`
    /// becomes what was channel `map[i]`.
    static func rearrange(_ samples: UnsafeMutableBufferPointer<Int16>, by map: [Int]) {
        let channels = map.count
        var frame = InlineArray<8, Int16>(repeating: 0)
        var start = 0
        while start + channels <= samples.count {
            for channel in 0..<channels { frame[channel] = samples[start + channel] }
            for channel in 0..<channels { samples[start + channel] = frame[map[channel]] }
            start += channels
        }
    }
}
