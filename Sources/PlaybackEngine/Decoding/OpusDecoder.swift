import CDecoderLibraries
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// An Ogg Opus file decoded by libopusfile at 48 kHz: pre-skip and end trimming applied, so the
/// length (`op_pcm_total`) is the encoded signal's; the header's output gain applied;
/// sample-exact seeking (`op_pcm_seek`); 16-bit output without dither, so that every play
/// gives the same samples. Tags from OpusTags (ReplayGain from `REPLAYGAIN_*`, else from
/// `R128_*_GAIN`), the cover from `METADATA_BLOCK_PICTURE`. A chained file plays its links
/// while their channel count stays that of the first.
///
/// Owned by one thread at a time.
public final class OpusDecoder: FileDecoder, @unchecked Sendable {
    /// Opus always decodes at 48 kHz, whatever rate the encoder was given.
    public static let sampleRate = 48_000
    public let opened: OpenedFile
    private let file: OpaquePointer
    private let input: DecoderInput
    private let cover: EmbeddedPicture?
    /// Set once a link with another channel count is met: the item ends there.
    private var formatChanged = false
    /// Vorbis order to WAVE order, beyond stereo (`ChannelOrder`).
    private let channelMap: [Int]?

    public init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError) {
        guard playbackd_opusfile_load() == 1 else {
            throw .unsupported("Opus: libopusfile (libopusfile0) cannot be loaded")
        }
        var callbacks = OpusFileCallbacks(
            read: { source, destination, count in
                Int32(DecoderInput.from(source).read(into: destination!, count: Int(count)))
            },
            seek: { source, offset, whence in DecoderInput.from(source).seekStatus(to: offset, whence: whence) },
            tell: { source in DecoderInput.from(source).position },
            close: nil)
        var status: Int32 = 0
        guard
            let file = playbackd_op_open_callbacks(input.opaque, &callbacks, nil, 0, &status)
        else {
            throw input.readFailure ?? .notOpus(input.size == 0 ? "empty file" : OggLibraryError.describe(status))
        }
        let channels = Int(playbackd_op_channel_count(file, -1))
        guard (1...8).contains(channels) else {
            playbackd_op_free(file)
            throw .notOpus("\(channels) channels")
        }
        playbackd_op_set_dither_enabled(file, 0)
        self.file = file
        self.input = input
        let format = AudioFormat(sampleRate: Self.sampleRate, channels: channels)
        channelMap = ChannelOrder.fromVorbis(channels: format.channels)
        let comments =
            playbackd_op_tags(file, -1).map {
                VorbisComments(
                    $0.pointee.user_comments, lengths: $0.pointee.comment_lengths, count: $0.pointee.comments)
            } ?? VorbisComments(entries: [[UInt8]]())
        (opened, cover) = comments.openedFile(
            path: path, format: format, total: Int64(playbackd_op_pcm_total(file, -1)), readsPictures: readsPictures
        ) { metadata in
            metadata.replayGainTrackGain = metadata.replayGainTrackGain ?? comments.opusReplayGain("R128_TRACK_GAIN")
            metadata.replayGainAlbumGain = metadata.replayGainAlbumGain ?? comments.opusReplayGain("R128_ALBUM_GAIN")
        }
    }

    deinit { playbackd_op_free(file) }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        var done = 0
        var link: Int32 = 0
        // Whatever path returns, what was decoded leaves in WAVE order.
        defer {
            if let channelMap {
                ChannelOrder.rearrange(UnsafeMutableBufferPointer(rebasing: buffer[..<done]), by: channelMap)
            }
        }
        while done < buffer.count, !formatChanged {
            let frames = playbackd_op_read(
                file, buffer.baseAddress! + done, Int32(clamping: buffer.count - done), &link)
            // A missing page: decoding goes on after it.
            if frames == OP_HOLE { continue }
            if frames < 0 {
                if done > 0 { return done }
                throw input.readFailure ?? .decodingFailed(OggLibraryError.describe(frames))
            }
            if frames == 0 { break }
            guard Int(playbackd_op_channel_count(file, link)) == format.channels else {
                formatChanged = true
                break
            }
            done += Int(frames) * format.channels
        }
        return done
    }

    /// How far before a seek's target decoding starts; what lies before the target is dropped.
    /// libopusfile decodes 80 ms before a target (RFC 7845's minimum), after which the samples
    /// still differ from a decode from the start: here by up to 2,600 LSB at the target, halving
    /// every 20 ms, 1 LSB after 240 ms. From 320 ms earlier (400 ms with libopusfile's own),
    /// a seek gives a decode from the start's samples within 1 LSB, for about 3 ms of decoding.
    static let seekPrerollFrames = sampleRate * 320 / 1000

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        let start = max(0, frame - Self.seekPrerollFrames)
        let status = playbackd_op_pcm_seek(file, ogg_int64_t(start))
        guard status == 0 else {
            throw input.readFailure
                ?? .decodingFailed("cannot seek to sample \(frame): \(OggLibraryError.describe(status))")
        }
        formatChanged = false
        var dropped = 0
        var scratch = [Int16](repeating: 0, count: 5_760 * format.channels)
        while dropped < frame - start {
            let wanted = min(frame - start - dropped, 5_760) * format.channels
            let frames = scratch.withUnsafeMutableBufferPointer {
                playbackd_op_read(file, $0.baseAddress!, Int32(wanted), nil)
            }
            if frames == OP_HOLE { continue }
            guard frames > 0 else {
                throw input.readFailure
                    ?? .decodingFailed("cannot seek to sample \(frame): \(OggLibraryError.describe(frames))")
            }
            dropped += Int(frames)
        }
        return frame
    }

    public func coverPicture() -> EmbeddedPicture? { cover }
}
