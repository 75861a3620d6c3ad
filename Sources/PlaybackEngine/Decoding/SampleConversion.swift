import CDecoderLibraries

#if canImport(Glibc)
    import Glibc
#endif

/// An FFmpeg frame's samples as interleaved signed 16-bit ones: 16-bit as they are, 8-bit
/// moved to the top, floating point as libswresample converts it (`lrintf(x * 32768)`,
/// clipped), so that `ffmpeg -f s16le`'s output is the reference.
enum SampleConversion {
    /// Appends frames `frames` of `frame` (packed or planar) to `out`.
    static func interleave(_ frame: AVFrame, frames: Range<Int>, channels: Int, into out: inout [Int16]) {
        out.reserveCapacity(out.count + frames.count * channels)
        let planes = frame.extended_data!
        let planar = playbackd_sample_format_is_planar(frame.format) != 0
        // Sample `channel` of frame `index`, wherever the layout keeps it.
        func at<T>(_ type: T.Type, _ index: Int, _ channel: Int) -> T {
            planar
                ? UnsafeRawPointer(planes[channel]!).load(fromByteOffset: index * MemoryLayout<T>.size, as: T.self)
                : UnsafeRawPointer(planes[0]!).load(
                    fromByteOffset: (index * channels + channel) * MemoryLayout<T>.size, as: T.self)
        }
        switch AVSampleFormat(rawValue: frame.format) {
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P:
            for index in frames { for channel in 0..<channels { out.append(at(Int16.self, index, channel)) } }
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P:
            for index in frames {
                for channel in 0..<channels { out.append((Int16(at(UInt8.self, index, channel)) - 128) << 8) }
            }
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP:
            for index in frames {
                for channel in 0..<channels {
                    out.append(Int16(clamping: lrintf(at(Float.self, index, channel) * 32_768)))
                }
            }
        default: break
        }
    }
}
