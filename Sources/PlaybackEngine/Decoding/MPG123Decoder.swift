import CMPG123
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// An MP3 file decoded by libmpg123: gapless (encoder delay and padding removed), exact
/// seeking, output forced to the file's own rate and channels as signed 16-bit interleaved
/// samples.
///
/// Opening reads only what a probe needs: the first frame with its Xing/LAME tag (the exact
/// length), the ID3 tags. The frame index that exact seeking needs is built as frames are read:
/// a seek reads frame headers from the nearest indexed frame up to the target, never the
/// whole file (an hour into a 2-hour file: about 25 ms here).
///
/// Owned by one thread at a time; the handle is not shared.
public final class MPG123Decoder: FileDecoder, @unchecked Sendable {
    public let opened: OpenedFile
    private let handle: OpaquePointer
    private let input: DecoderInput

    public init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError) {
        guard input.size != 0 else { throw .notMPEGAudio("empty file") }
        let handle: OpaquePointer
        switch MPG123SpareHandle.take() {
        case .success(let taken): handle = taken
        case .failure(let error): throw error
        }
        self.handle = handle
        self.input = input
        do {
            let (format, frames) = try Self.configure(handle, input: input, readsPictures: readsPictures)
            opened = OpenedFile(
                format: format, frameCount: frames,
                metadata: ID3Reader.metadata(handle, path: path, format: format, frames: frames))
        } catch {
            MPG123SpareHandle.give(handle)
            throw error
        }
    }

    deinit { MPG123SpareHandle.give(handle) }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        var done = 0
        while true {
            let result = mpg123_read(
                handle, UnsafeMutableRawPointer(buffer.baseAddress),
                buffer.count * 2, &done)
            switch result {
            case MPG123_OK.rawValue, MPG123_DONE.rawValue:
                if done > 0 { return done / 2 }
                // libmpg123 ends the stream at a read error as at the end of the file.
                if let failure = input.readFailure { throw failure }
                if result == MPG123_DONE.rawValue { return 0 }
            case MPG123_NEW_FORMAT.rawValue:
                if done > 0 { return done / 2 }
            default:
                throw input.readFailure ?? .decodingFailed(String(cString: mpg123_strerror(handle)))
            }
        }
    }

    public func coverPicture() -> EmbeddedPicture? { ID3Reader.coverPicture(handle) }

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        let landed = mpg123_seek(handle, off_t(frame), SEEK_SET)
        guard landed >= 0, input.readFailure == nil else {
            throw input.readFailure ?? .decodingFailed(String(cString: mpg123_strerror(handle)))
        }
        return Int(landed)
    }

    private static func configure(
        _ handle: OpaquePointer, input: DecoderInput, readsPictures: Bool
    ) throws(DecoderError) -> (AudioFormat, Int?) {
        // Every setting is made again: the handle may have decoded another file before.
        let pictures = Int(MPG123_PICTURE.rawValue | MPG123_STORE_RAW_ID3.rawValue)
        mpg123_param2(
            handle, Int32(MPG123_ADD_FLAGS.rawValue),
            Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue) | (readsPictures ? pictures : 0), 0)
        mpg123_param2(
            handle, Int32(MPG123_REMOVE_FLAGS.rawValue),
            Int(MPG123_AUTO_RESAMPLE.rawValue) | (readsPictures ? 0 : pictures), 0)
        mpg123_format_all(handle)
        guard
            mpg123_replace_reader_handle(handle, DecoderInput.mpg123Read, DecoderInput.mpg123Seek, nil)
                == MPG123_OK.rawValue,
            mpg123_open_handle(handle, input.opaque) == MPG123_OK.rawValue
        else {
            throw input.readFailure ?? .notMPEGAudio(String(cString: mpg123_strerror(handle)))
        }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue,
            rate > 0, channels > 0
        else {
            throw input.readFailure ?? .notMPEGAudio("no MPEG audio frame found")
        }
        mpg123_format_none(handle)
        mpg123_format(handle, rate, channels, Int32(MPG123_ENC_SIGNED_16.rawValue))
        let length = mpg123_length(handle)
        return (AudioFormat(sampleRate: rate, channels: Int(channels)), length > 0 ? Int(length) : nil)
    }
}

extension DecoderInput {
    /// libmpg123's reader handle callbacks over the input.
    static let mpg123Read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = {
        handle, destination, count in
        guard let destination else { return -1 }
        return DecoderInput.from(handle).read(into: destination, count: count)
    }

    static let mpg123Seek: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = {
        handle, offset, whence in
        DecoderInput.from(handle).seek(to: offset, whence: whence)
    }
}
