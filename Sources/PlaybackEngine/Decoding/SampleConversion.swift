import CDecoderLibraries

#if canImport(Glibc)
    import Glibc
#endif

/// An FFmpeg frame's samples as interleaved signed 16 or 32-bit ones: integers moved to the
/// top of the wider type (8 and 16-bit as they are heard; 24-bit, which libavcodec hands over
/// at the top of 32 bits, kept whole), floating point as libswresample converts it
/// (`lrintf(x * 32768)` for 16 bits, clipped), so that `ffmpeg -f s16le` (or `s32le`) is the
/// reference.
enum SampleConversion {
    /// Replaces `out` with frames `frames` of `frame` (packed or planar), interleaved. A frame
    /// whose channels are not the stream's (a file that changes its layout part-way), or that
    /// lacks a plane, is silence: reading it with the stream's layout would read past its data.
    static func interleave<Out: PCMSample>(_ frame: AVFrame, frames: Range<Int>, channels: Int, into out: inout [Out]) {
        let count = frames.count * channels
        if out.count != count { out = [Out](repeating: 0, count: count) }
        let planar = playbackd_sample_format_is_planar(frame.format) != 0
        guard let planes = frame.extended_data, Int(frame.ch_layout.nb_channels) == channels,
            frames.upperBound <= Int(frame.nb_samples),
            (0..<(planar ? channels : 1)).allSatisfy({ planes[$0] != nil })
        else {
            return out.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        let wide = Out.bitWidth == 32
        out.withUnsafeMutableBufferPointer { destination in
            let target = destination.baseAddress!
            // Each channel's samples: their first and the distance between two of them.
            func convert<Sample>(_: Sample.Type, _ transform: (Sample) -> Out) {
                for channel in 0..<channels {
                    let (plane, start, stride) =
                        planar
                        ? (planes[channel]!, frames.lowerBound, 1)
                        : (planes[0]!, frames.lowerBound * channels + channel, channels)
                    let source = UnsafeRawPointer(plane).assumingMemoryBound(to: Sample.self) + start
                    var index = 0
                    var output = target + channel
                    while index < frames.count {
                        output.pointee = transform(source[index &* stride])
                        output += channels
                        index &+= 1
                    }
                }
            }
            /// A 32-bit value at the top of `Out`.
            func top(_ value: Int32) -> Out { Out(truncatingIfNeeded: wide ? value : value >> 16) }
            /// Full scale 1.0 rounded to the nearest integer of `Out` (as `lrintf(x * 32768)` for
            /// 16 bits; exact in a double, whose scaling by a power of two loses nothing), clipped.
            func quantized(_ value: Double) -> Out {
                wide
                    ? Out(truncatingIfNeeded: Int32(clamping: llrint(value * 2_147_483_648)))
                    : Out(truncatingIfNeeded: Int16(clamping: llrint(value * 32_768)))
            }
            switch AVSampleFormat(rawValue: frame.format) {
            case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: convert(Int16.self) { top(Int32($0) << 16) }
            case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: convert(UInt8.self) { top((Int32($0) &- 128) << 24) }
            case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P: convert(Int32.self, top)
            case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: convert(Float.self) { quantized(Double($0)) }
            case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP: convert(Double.self, quantized)
            default: destination.update(repeating: 0)
            }
        }
    }

    /// Whether samples of `sampleFormat` from `codec` become 32-bit (`wide`) or 16-bit ones
    /// without losing bits. 32 bits take every format `interleave` converts; 16 bits take 16 and
    /// 8-bit integers and the floating point a lossy codec decodes to (not a float PCM file's).
    static func keepsEveryBit(_ sampleFormat: AVSampleFormat, codec: AVCodecID, wide: Bool) -> Bool {
        switch sampleFormat {
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: true
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP: wide
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: wide || !FFmpegDecoder.isWidePCM(codec)
        default: false
        }
    }
}
