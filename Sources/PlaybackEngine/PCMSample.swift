import CSoundKernel

/// A sample type the engine carries: `Int16` for `SampleFormat.s16`, `Int32` for `.s32`. The
/// ring, the loops and the sound chain are generic over it, so that each format's pipeline is
/// compiled for its own type and a 16-bit item takes the same path, byte for byte, as before
/// 32-bit samples existed.
protocol PCMSample: FixedWidthInteger, SignedInteger, BitwiseCopyable, Sendable {
    static var sampleFormat: SampleFormat { get }
    /// Decodes the next samples of `decoder`, whose format is of this type.
    static func read(from decoder: any AudioDecoder, into buffer: UnsafeMutableBufferPointer<Self>) throws(DecoderError)
        -> Int
    /// `frames` frames of `channels` (1 or 2) interleaved samples as a signal of two doubles a
    /// frame, full scale 1.0 (`CSoundKernel`).
    static func widen(
        _ input: UnsafePointer<Self>, frames: Int, channels: Int, into signal: UnsafeMutablePointer<Double>)
    /// The signal back to samples, with TPDF dither of one LSB of the format's resolution.
    static func narrow(
        _ signal: UnsafePointer<Double>, frames: Int, channels: Int, dither: inout playbackd_dither,
        into output: UnsafeMutablePointer<Self>)
}

extension Int16: PCMSample {
    static var sampleFormat: SampleFormat { .s16 }

    static func read(from decoder: any AudioDecoder, into buffer: UnsafeMutableBufferPointer<Int16>)
        throws(DecoderError) -> Int
    { try decoder.read(into: buffer) }

    static func widen(
        _ input: UnsafePointer<Int16>, frames: Int, channels: Int, into signal: UnsafeMutablePointer<Double>
    ) { playbackd_sound_widen(input, frames, Int32(channels), signal) }

    static func narrow(
        _ signal: UnsafePointer<Double>, frames: Int, channels: Int, dither: inout playbackd_dither,
        into output: UnsafeMutablePointer<Int16>
    ) { playbackd_sound_narrow(signal, frames, Int32(channels), &dither, output) }
}

extension Int32: PCMSample {
    static var sampleFormat: SampleFormat { .s32 }

    static func read(from decoder: any AudioDecoder, into buffer: UnsafeMutableBufferPointer<Int32>)
        throws(DecoderError) -> Int
    { try decoder.read(into: buffer) }

    static func widen(
        _ input: UnsafePointer<Int32>, frames: Int, channels: Int, into signal: UnsafeMutablePointer<Double>
    ) { playbackd_sound_widen32(input, frames, Int32(channels), signal) }

    static func narrow(
        _ signal: UnsafePointer<Double>, frames: Int, channels: Int, dither: inout playbackd_dither,
        into output: UnsafeMutablePointer<Int32>
    ) { playbackd_sound_narrow24(signal, frames, Int32(channels), &dither, output) }
}
