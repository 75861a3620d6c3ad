import CDecoderLibraries
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// AAC and ALAC in MP4 (`.m4a`, `.m4b`, `.mp4`), WAV and AIFF, decoded by FFmpeg's libavformat
/// and libavcodec, loaded when such a file is first opened. Gapless: libavcodec drops the
/// encoder delay the MP4's edit list gives (`skip_samples`), and the item ends at the edit
/// list's length (the stream's `duration`), where FFmpeg's own command line plays the encoder's
/// end padding too. Seeking decodes from 8,192 samples before the target (an AAC frame needs
/// the one before it) and drops what lies before it, by each frame's timestamp. Floating-point
/// output becomes 16-bit as libswresample converts it (rounded to nearest, clipped), so that
/// `ffmpeg -f s16le` is the reference. Sources of more than 16 bits (24-bit ALAC and PCM, 32-bit
/// and floating-point PCM) play as 32-bit samples, every bit kept.
///
/// Owned by one thread at a time.
public final class FFmpegDecoder: FileDecoder, @unchecked Sendable {
    public let opened: OpenedFile
    private let input: DecoderInput
    private let container: FFmpegContainer
    private let stream: Int32
    private let timeBase: AVRational
    private let cover: EmbeddedPicture?
    private var pending = PendingSamples<Int16>()
    /// The same for a source of more than 16 bits (one of the two is used).
    private var widePending = PendingSamples<Int32>()
    /// Where the next frame without a timestamp starts, in frames from the item's start.
    private var position = 0
    /// The first frame to output (after a seek: its target).
    private var firstFrame = 0
    private var ended = false

    /// How far before a seek's target decoding starts: an AAC frame (1,024 samples) is only
    /// right after the one before it; this covers HE-AAC's 2,048 and its filters' delay.
    static let seekPrerollFrames = 8_192

    public init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError) {
        guard playbackd_ffmpeg_load() == 1 else {
            throw .unsupported("MP4, WAV and AIFF: FFmpeg's libavformat59 and libavcodec59 cannot be loaded")
        }
        guard input.size != 0 else { throw .notAudio("empty file") }
        self.input = input
        container = try FFmpegContainer(input, path: path)
        let context = container.format
        let found = playbackd_av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard found >= 0, let audio = context.pointee.streams[Int(found)] else { throw .notAudio("no audio stream") }
        stream = found
        timeBase = audio.pointee.time_base
        // What the container's header says is enough: the decoder opens at the first read, so
        // probing 10,000 files opens none (and reads no packet: no avformat_find_stream_info).
        let parameters = audio.pointee.codecpar!.pointee
        let rate = parameters.sample_rate
        let channels = Int(parameters.ch_layout.nb_channels)
        guard rate > 0, (1...8).contains(channels) else { throw .notAudio("\(rate) Hz, \(channels) channels") }
        // The bits of each sample as stored, where the container says (PCM, ALAC); 0 for AAC.
        let bits = Int(
            max(
                parameters.bits_per_raw_sample > 0 ? parameters.bits_per_raw_sample : parameters.bits_per_coded_sample,
                0))
        let format = AudioFormat(
            sampleRate: Int(rate), channels: channels,
            sampleFormat: bits > 16 || Self.isWidePCM(parameters.codec_id) ? .s32 : .s16)
        container.wideSamples = format.sampleFormat == .s32
        let duration = audio.pointee.duration
        let frameCount =
            duration > 0 && duration != Int64.min
            ? Int(playbackd_av_rescale_q(duration, timeBase, AVRational(num: 1, den: rate))) : nil
        opened = OpenedFile(
            format: format, frameCount: frameCount,
            metadata: FFmpegTags(
                dictionaries: [context.pointee.metadata, audio.pointee.metadata], chapters: Self.chapters(context)
            )
            .applied(to: .untagged(path: path, format: format, frames: frameCount)))
        cover = readsPictures ? Self.attachedPicture(context) : nil
    }

    /// The container's chapters (an M4B's chapter track or Nero `chpl` atom, as libavformat
    /// reads them): each one's start in seconds and its `title`.
    private static func chapters(_ context: UnsafeMutablePointer<AVFormatContext>) -> [(start: Double, title: String?)]
    {
        guard let list = context.pointee.chapters else { return [] }
        return (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = list[index] else { return nil }
            let base = chapter.pointee.time_base
            guard base.den > 0, base.num > 0 else { return nil }
            let start = Double(chapter.pointee.start) * Double(base.num) / Double(base.den)
            let title = FFmpegTags(dictionaries: [chapter.pointee.metadata], chapters: []).title
            return (start, title)
        }
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        try decode(into: buffer, through: &pending)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        try decode(into: buffer, through: &widePending)
    }

    /// Fills `buffer` from the frames converted into `converted`, decoding more as needed.
    private func decode<Sample: PCMSample>(
        into buffer: UnsafeMutableBufferPointer<Sample>, through converted: inout PendingSamples<Sample>
    ) throws(DecoderError) -> Int {
        let done = try converted.fill(buffer) { samples throws(DecoderError) in
            if ended { return false }
            switch try container.nextFrame(of: stream) {
            case .frame(let frame): keep(frame.pointee, into: &samples)
            case .end:
                ended = true
                return false
            }
            return true
        }
        if done == 0, let failure = input.readFailure { throw failure }
        return done
    }

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        let rate = AVRational(num: 1, den: Int32(format.sampleRate))
        // Before the start near it: the first packet (the encoder delay, which libavcodec drops
        // again) is where decoding from the start begins; a seek to 0 would land after it.
        let start = frame - Self.seekPrerollFrames
        try container.seek(stream, to: playbackd_av_rescale_q(Int64(start), rate, timeBase), fromTheStart: start <= 0)
        pending.clear()
        widePending.clear()
        position = max(0, start)
        firstFrame = frame
        ended = false
        return frame
    }

    public func coverPicture() -> EmbeddedPicture? { cover }

    /// The part of `frame` from `firstFrame` to the item's end, converted into `buffer`'s memory.
    private func keep<Sample: PCMSample>(_ frame: AVFrame, into buffer: inout [Sample]) {
        let count = Int(frame.nb_samples)
        let timestamp = frame.best_effort_timestamp
        let start =
            timestamp == Int64.min
            ? position
            : Int(playbackd_av_rescale_q(timestamp, timeBase, AVRational(num: 1, den: Int32(format.sampleRate))))
        position = start + count
        let from = min(count, max(0, firstFrame - start))
        let to = frameCount.map { min(count, max(from, $0 - start)) } ?? count
        if let frameCount, start + count >= frameCount { ended = true }
        SampleConversion.interleave(frame, frames: from..<max(from, to), channels: format.channels, into: &buffer)
    }

    /// Whether `codec` is PCM of more than 16 bits whose header may not say its bits: 32-bit
    /// integers and floating point.
    static func isWidePCM(_ codec: AVCodecID) -> Bool {
        [
            AV_CODEC_ID_PCM_S32LE, AV_CODEC_ID_PCM_S32BE, AV_CODEC_ID_PCM_F32LE, AV_CODEC_ID_PCM_F32BE,
            AV_CODEC_ID_PCM_F64LE, AV_CODEC_ID_PCM_F64BE,
        ].contains(codec)
    }

    /// The cover an MP4 (`covr`) or other container carries as an attached picture.
    private static func attachedPicture(_ context: UnsafeMutablePointer<AVFormatContext>) -> EmbeddedPicture? {
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index]?.pointee,
                stream.disposition & AV_DISPOSITION_ATTACHED_PIC != 0, let data = stream.attached_pic.data,
                stream.attached_pic.size > 0
            else { continue }
            let mime =
                switch stream.codecpar.pointee.codec_id {
                case AV_CODEC_ID_MJPEG: "image/jpeg"
                case AV_CODEC_ID_PNG: "image/png"
                default: ""
                }
            return EmbeddedPicture(
                mimeType: mime, data: Array(UnsafeBufferPointer(start: data, count: Int(stream.attached_pic.size))))
        }
        return nil
    }
}
