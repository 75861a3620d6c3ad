import CDecoderLibraries

#if canImport(Glibc)
    import Glibc
#endif

/// One file open in libavformat, read through `DecoderInput` (an `AVIOContext` on its callbacks),
/// and the codec of its audio stream: FFmpeg's structures, allocated and freed in one place.
/// Owned by one `FFmpegDecoder`.
final class FFmpegContainer {
    enum Next {
        case frame(UnsafeMutablePointer<AVFrame>)
        case end
    }

    let format: UnsafeMutablePointer<AVFormatContext>
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let input: DecoderInput
    private let io: UnsafeMutablePointer<AVIOContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    /// Set once the file is read to its end and the decoder is being drained.
    private var draining = false
    /// Frames in a row the decoder refused (damaged ones are passed over, as ffmpeg does).
    private var refusals = 0

    init(_ input: DecoderInput, path: String) throws(DecoderError) {
        let bufferSize: Int32 = 32_768
        guard let buffer = playbackd_av_malloc(Int(bufferSize)),
            let io = playbackd_avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, input.opaque,
                Self.read, nil, Self.seek)
        else { throw .decodingFailed("out of memory") }
        var context = playbackd_avformat_alloc_context()
        context?.pointee.pb = io
        context?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        let opened = playbackd_avformat_open_input(&context, path, nil, nil)
        guard opened >= 0, let context,
            let packet = playbackd_av_packet_alloc(), let frame = playbackd_av_frame_alloc()
        else {
            playbackd_avformat_close_input(&context)
            Self.free(io)
            throw input.readFailure ?? .notAudio(opened < 0 ? Self.describe(opened) : "no stream information")
        }
        self.input = input
        self.io = io
        self.format = context
        self.packet = packet
        self.frame = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        playbackd_av_frame_free(&frame)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        playbackd_av_packet_free(&packet)
        if codec != nil { playbackd_avcodec_free_context(&codec) }
        var format: UnsafeMutablePointer<AVFormatContext>? = format
        playbackd_avformat_close_input(&format)
        Self.free(io)
    }

    /// Whether the samples are converted to 32 bits (else 16): the decoder must give no more.
    var wideSamples = false

    /// The decoder of `stream`, opened at the first frame asked for.
    private func codec(for stream: Int32) throws(DecoderError) -> UnsafeMutablePointer<AVCodecContext> {
        if let codec { return codec }
        try openCodec(for: format.pointee.streams[Int(stream)]!)
        guard
            SampleConversion.keepsEveryBit(codec!.pointee.sample_fmt, codec: codec!.pointee.codec_id, wide: wideSamples)
        else { throw .unsupported("samples the decoder gives in more bits than the container said") }
        return codec!
    }

    /// Opens the decoder of `stream`, its timestamps in the stream's time base (so that the
    /// frames after the encoder delay it drops start at 0).
    private func openCodec(for stream: UnsafeMutablePointer<AVStream>) throws(DecoderError) {
        let parameters = stream.pointee.codecpar
        guard let decoder = playbackd_avcodec_find_decoder(parameters!.pointee.codec_id) else {
            throw .unsupported("a codec FFmpeg has no decoder for")
        }
        guard let context = playbackd_avcodec_alloc_context3(decoder) else { throw .decodingFailed("out of memory") }
        codec = context
        context.pointee.pkt_timebase = stream.pointee.time_base
        let opened =
            playbackd_avcodec_parameters_to_context(context, parameters) < 0
            ? -1 : playbackd_avcodec_open2(context, decoder, nil)
        guard opened >= 0 else { throw .decodingFailed("cannot open the decoder: \(Self.describe(opened))") }
    }

    /// The next decoded frame of `stream` (valid until the next call), or the end.
    func nextFrame(of stream: Int32) throws(DecoderError) -> Next {
        let codec = try codec(for: stream)
        while true {
            playbackd_av_frame_unref(frame)
            let received = playbackd_avcodec_receive_frame(codec, frame)
            if received >= 0 {
                refusals = 0
                return .frame(frame)
            }
            if received == playbackd_averror_eof { return .end }
            if received != playbackd_averror_eagain {
                refusals += 1
                guard refusals < 100 else { throw .decodingFailed(Self.describe(received)) }
                continue
            }
            if draining { return .end }
            guard playbackd_av_read_frame(format, packet) >= 0 else {
                // The end of what can be read: what the decoder holds comes out next.
                draining = true
                _ = playbackd_avcodec_send_packet(codec, nil)
                continue
            }
            if packet.pointee.stream_index == stream { _ = playbackd_avcodec_send_packet(codec, packet) }
            playbackd_av_packet_unref(packet)
        }
    }

    /// Moves to the last point from which `stream` can be decoded at or before `timestamp`.
    /// `fromTheStart` opens the decoder anew rather than flushing it: the frames after the
    /// encoder delay then come out as from a file just opened (a flushed AAC decoder keeps the
    /// window shape it had, and its first frames differ by up to 49 LSB; measured).
    func seek(_ stream: Int32, to timestamp: Int64, fromTheStart: Bool) throws(DecoderError) {
        let result = playbackd_av_seek_frame(format, stream, timestamp, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else { throw input.readFailure ?? .decodingFailed("cannot seek: \(Self.describe(result))") }
        if fromTheStart {
            // Opened again at the next frame.
            if codec != nil { playbackd_avcodec_free_context(&codec) }
        } else {
            playbackd_avcodec_flush_buffers(try codec(for: stream))
        }
        draining = false
    }

    /// FFmpeg's words for an error code.
    static func describe(_ error: Int32) -> String {
        var text = [UInt8](repeating: 0, count: 128)
        text.withUnsafeMutableBufferPointer {
            _ = $0.withMemoryRebound(to: CChar.self) { playbackd_av_strerror(error, $0.baseAddress, $0.count) }
        }
        return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func free(_ io: UnsafeMutablePointer<AVIOContext>) {
        playbackd_av_free(io.pointee.buffer)
        var io: UnsafeMutablePointer<AVIOContext>? = io
        playbackd_avio_context_free(&io)
    }

    private static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        let got = DecoderInput.from(opaque).read(into: buffer!, count: Int(size))
        return got > 0 ? Int32(got) : got == 0 ? playbackd_averror_eof : playbackd_averror_eio
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        let input = DecoderInput.from(opaque)
        if whence & AVSEEK_SIZE != 0 { return Int64(input.size ?? -1) }
        let moved = input.seek(to: off_t(offset), whence: whence & ~AVSEEK_FORCE)
        return moved >= 0 ? Int64(moved) : Int64(playbackd_averror_eio)
    }
}
