import CDecoderLibraries

#if canImport(Glibc)
    import Glibc
#endif

/// An FFmpeg frame's samples as interleaved signed 16-bit ones: 16-bit as they are, 8-bit
/// moved to the top, floating point as libswresample converts it (`lrintf(x * 32768)`,
/// clipped), so that `ffmpeg -f s16le`'s output is the reference.
enum SampleConversion {
    /// Replaces `out` with frames `frames` of `frame` (packed or planar), interleaved.
    static func interleave(_ frame: AVFrame, frames: Range<Int>, channels: Int, into out: inout [Int16]) {
        let count = frames.count * channels
        if out.count != count { out = [Int16](repeating: 0, count: count) }
        let planes = frame.extended_data!
        let planar = playbackd_sample_format_is_planar(frame.format) != 0
        out.withUnsafeMutableBufferPointer { destination in
            let target = destination.baseAddress!
            // Each channel's samples: their first and the distance between two of them.
            func convert<Sample>(_: Sample.Type, _ transform: (Sample) -> Int16) {
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
            switch AVSampleFormat(rawValue: frame.format) {
            case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: convert(Int16.self) { $0 }
            case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: convert(UInt8.self) { (Int16($0) &- 128) << 8 }
            case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: convert(Float.self) { Int16(clamping: lrintf($0 * 32_768)) }
            default: destination.update(repeating: 0)
            }
        }
    }
}
