import CDecoderLibraries
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// An Ogg Vorbis file decoded by libvorbisfile: the exact length from the last granule
/// position (`ov_pcm_total`), sample-exact seeking (`ov_pcm_seek`, not the page-granular
/// one), 16-bit samples as `ov_read` converts them (as `oggdec` does), tags from the comment
/// header and the cover from `METADATA_BLOCK_PICTURE`. A chained file plays its links while
/// their format stays that of the first.
///
/// Owned by one thread at a time.
public final class VorbisDecoder: FileDecoder, @unchecked Sendable {
    public let opened: OpenedFile
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let input: DecoderInput
    private let cover: EmbeddedPicture?
    /// Set once a link of another format is met: the item ends there.
    private var formatChanged = false
    /// Vorbis order to WAVE order, beyond stereo (`ChannelOrder`).
    private let channelMap: [Int]?

    public init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError) {
        guard playbackd_vorbisfile_load() == 1 else {
            throw .unsupported("Ogg Vorbis: libvorbisfile (libvorbisfile3) cannot be loaded")
        }
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let callbacks = ov_callbacks(
            read_func: { destination, size, count, source in
                let got = DecoderInput.from(source).read(into: destination!, count: size * count)
                return got > 0 ? got / size : 0
            },
            seek_func: { source, offset, whence in DecoderInput.from(source).seekStatus(to: offset, whence: whence) },
            close_func: nil,
            tell_func: { source in Int(DecoderInput.from(source).position) })
        let status = playbackd_ov_open_callbacks(input.opaque, file, nil, 0, callbacks)
        guard status == 0 else {
            file.deallocate()
            throw input.readFailure ?? .notOggVorbis(input.size == 0 ? "empty file" : OggLibraryError.describe(status))
        }
        guard let info = playbackd_ov_info(file, -1)?.pointee, info.rate > 0, (1...8).contains(info.channels) else {
            playbackd_ov_clear(file)
            file.deallocate()
            throw .notOggVorbis("no playable stream")
        }
        self.file = file
        self.input = input
        let format = AudioFormat(sampleRate: info.rate, channels: Int(info.channels))
        channelMap = ChannelOrder.fromVorbis(channels: format.channels)
        let comments =
            playbackd_ov_comment(file, -1).map {
                VorbisComments(
                    $0.pointee.user_comments, lengths: $0.pointee.comment_lengths, count: $0.pointee.comments)
            } ?? VorbisComments(entries: [[UInt8]]())
        (opened, cover) = comments.openedFile(
            path: path, format: format, total: Int64(playbackd_ov_pcm_total(file, -1)), readsPictures: readsPictures)
    }

    deinit {
        playbackd_ov_clear(file)
        file.deallocate()
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        var done = 0
        var link: Int32 = 0
        // Whatever path returns, what was decoded leaves in WAVE order.
        defer {
            if let channelMap {
                ChannelOrder.rearrange(UnsafeMutableBufferPointer(rebasing: buffer[..<done]), by: channelMap)
            }
        }
        // Whole frames only: libvorbisfile refuses a buffer shorter than one (OV_EINVAL).
        while buffer.count - done >= format.channels, !formatChanged {
            let bytes = Int32(clamping: (buffer.count - done) / format.channels * format.channels * 2)
            let destination = UnsafeMutableRawPointer(buffer.baseAddress! + done).assumingMemoryBound(to: CChar.self)
            let got = playbackd_ov_read(file, destination, bytes, 0, 2, 1, &link)
            // A missing page: decoding goes on after it.
            if got == OV_HOLE { continue }
            if got < 0 {
                if done > 0 { return done }
                throw input.readFailure ?? .decodingFailed(OggLibraryError.describe(Int32(got)))
            }
            if got == 0 { break }
            guard let info = playbackd_ov_info(file, link)?.pointee, info.rate == format.sampleRate,
                Int(info.channels) == format.channels
            else {
                formatChanged = true
                break
            }
            done += got / 2
        }
        return done
    }

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        let status = playbackd_ov_pcm_seek(file, ogg_int64_t(frame))
        guard status == 0 else {
            throw input.readFailure
                ?? .decodingFailed("cannot seek to sample \(frame): \(OggLibraryError.describe(status))")
        }
        formatChanged = false
        return frame
    }

    public func coverPicture() -> EmbeddedPicture? { cover }
}
