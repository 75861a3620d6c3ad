import CDecoderLibraries
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// What libFLAC's callbacks read from and write to for one `FLACDecoder`: the file, the
/// metadata blocks as they pass, and the decoded samples of the last frame, interleaved as
/// signed 32-bit with the source's bits at the top, until `read` takes them (as 16 or 32 bits). Used on one thread at a time.
final class FLACStream {
    let input: DecoderInput
    /// The STREAMINFO block, once read.
    private(set) var info: FLAC__StreamMetadata_StreamInfo?
    /// The VORBIS_COMMENT block's entries, as bytes.
    private(set) var comments: [[UInt8]] = []
    /// The front cover (picture type 3), else the first picture; kept only when asked for.
    private(set) var picture: EmbeddedPicture?
    private let keepsPictures: Bool
    private var hasFrontCover = false
    /// Why decoding stopped short: a frame the stream's format cannot hold.
    private(set) var failure: DecoderError?
    /// libFLAC's last complaint about the stream, for an error message.
    private(set) var complaint: String?
    /// The last frame's samples not yet taken: `pending[cursor..<count]`.
    private var pending = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 0)
    private var cursor = 0
    private var count = 0

    init(_ input: DecoderInput, keepsPictures: Bool) {
        self.input = input
        self.keepsPictures = keepsPictures
    }

    deinit { pending.deallocate() }

    var hasPending: Bool { cursor < count }

    /// Moves pending samples into `buffer` from `offset`, their top bits when `Sample` has
    /// fewer than 32 (all of a 16-bit source's); returns how many.
    func take<Sample: PCMSample>(into buffer: UnsafeMutableBufferPointer<Sample>, at offset: Int) -> Int {
        let chunk = min(buffer.count - offset, count - cursor)
        let out = buffer.baseAddress! + offset
        let from = pending.baseAddress! + cursor
        let shift = Int32(32 - Sample.bitWidth)
        for index in 0..<chunk { out[index] = Sample(truncatingIfNeeded: from[index] >> shift) }
        cursor += chunk
        return chunk
    }

    /// Forgets pending samples (before a seek, whose frame replaces them).
    func discardPending() {
        cursor = 0
        count = 0
    }

    /// Starts `decoder` on this stream, native FLAC or FLAC in Ogg.
    func start(_ decoder: UnsafeMutablePointer<FLAC__StreamDecoder>, ogg: Bool) -> FLAC__StreamDecoderInitStatus {
        let client = Unmanaged.passUnretained(self).toOpaque()
        let initialize =
            ogg ? playbackd_FLAC__stream_decoder_init_ogg_stream : playbackd_FLAC__stream_decoder_init_stream
        return initialize(
            decoder,
            { _, bytes, size, client in
                let stream = FLACStream.of(client)
                let got = stream.input.read(into: bytes!, count: size!.pointee)
                guard got >= 0 else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
                size!.pointee = got
                return got == 0
                    ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
            },
            { _, offset, client in
                FLACStream.of(client).input.seek(to: off_t(offset), whence: SEEK_SET) >= 0
                    ? FLAC__STREAM_DECODER_SEEK_STATUS_OK : FLAC__STREAM_DECODER_SEEK_STATUS_ERROR
            },
            { _, offset, client in
                let position = FLACStream.of(client).input.seek(to: 0, whence: SEEK_CUR)
                guard position >= 0 else { return FLAC__STREAM_DECODER_TELL_STATUS_ERROR }
                offset!.pointee = FLAC__uint64(position)
                return FLAC__STREAM_DECODER_TELL_STATUS_OK
            },
            { _, length, client in
                guard let size = FLACStream.of(client).input.size else {
                    return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED
                }
                length!.pointee = FLAC__uint64(size)
                return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
            },
            { _, client in FLACStream.of(client).input.isAtEnd ? 1 : 0 },
            { _, frame, channels, client in FLACStream.of(client).write(frame!.pointee.header, channels!) },
            { _, block, client in FLACStream.of(client).keep(block!.pointee) },
            { _, status, client in FLACStream.of(client).complaint = FLACStream.describe(status) },
            client)
    }

    /// libFLAC's error statuses in words (its own string table is an array Swift cannot import).
    private static func describe(_ status: FLAC__StreamDecoderErrorStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "a bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "a frame's CRC does not match"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "an unparseable stream"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA: "a bad metadata block"
        default: "error \(status.rawValue)"
        }
    }

    private static func of(_ client: UnsafeMutableRawPointer?) -> FLACStream {
        Unmanaged<FLACStream>.fromOpaque(client!).takeUnretainedValue()
    }

    /// Interleaves one frame's channels as 32-bit samples, each value moved to the top (a left
    /// shift: every value kept).
    private func write(
        _ header: FLAC__FrameHeader, _ channels: UnsafePointer<UnsafePointer<FLAC__int32>?>
    ) -> FLAC__StreamDecoderWriteStatus {
        guard let info, header.channels == info.channels, header.bits_per_sample == info.bits_per_sample else {
            failure = .decodingFailed(
                "a frame of \(header.channels) channels and \(header.bits_per_sample) bits in a stream of "
                    + "\(info?.channels ?? 0) and \(info?.bits_per_sample ?? 0)")
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        let frames = Int(header.blocksize)
        let width = Int(header.channels)
        if pending.count < frames * width {
            // Only a frame longer than STREAMINFO's largest block size (a lying header) lands here.
            pending.deallocate()
            pending = .allocate(capacity: frames * width)
        }
        let shift = FLAC__int32(32 - Int(header.bits_per_sample))
        let out = pending.baseAddress!
        for channel in 0..<width {
            let samples = channels[channel]!
            for index in 0..<frames {
                out[index &* width &+ channel] = samples[index] << shift
            }
        }
        cursor = 0
        count = frames * width
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    private func keep(_ block: FLAC__StreamMetadata) {
        switch block.type {
        case FLAC__METADATA_TYPE_STREAMINFO:
            let streamInfo = block.data.stream_info
            info = streamInfo
            let capacity = Int(max(streamInfo.max_blocksize, 4608)) * Int(max(streamInfo.channels, 1))
            pending.deallocate()
            pending = .allocate(capacity: capacity)
        case FLAC__METADATA_TYPE_VORBIS_COMMENT:
            let block = block.data.vorbis_comment
            guard let entries = block.comments else { return }
            comments = UnsafeBufferPointer(start: entries, count: Int(block.num_comments)).map { entry in
                entry.entry.map { Array(UnsafeBufferPointer(start: $0, count: Int(entry.length))) } ?? []
            }
        case FLAC__METADATA_TYPE_PICTURE where keepsPictures:
            let found = block.data.picture
            let isFront = found.type == FLAC__STREAM_METADATA_PICTURE_TYPE_FRONT_COVER
            guard isFront ? !hasFrontCover : picture == nil, let data = found.data, found.data_length > 0 else {
                return
            }
            hasFrontCover = isFront
            picture = EmbeddedPicture(
                mimeType: found.mime_type.map { String(cString: $0) }?.lowercased() ?? "",
                data: Array(UnsafeBufferPointer(start: data, count: Int(found.data_length))))
        default: break
        }
    }
}
