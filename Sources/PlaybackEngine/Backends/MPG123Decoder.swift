import CMPG123
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// An MP3 file decoded by libmpg123: gapless (encoder delay and padding removed), exact
/// seeking (the frame index is built by a full scan before the first seek), output forced to
/// the file's own rate and channels as signed 16-bit interleaved samples.
///
/// Owned by one thread at a time; the handle is not shared.
public final class MPG123Decoder: AudioDecoder, @unchecked Sendable {
    public let format: AudioFormat
    public let frameCount: Int?
    public let metadata: TrackMetadata
    private let handle: OpaquePointer
    private let input: FileInput
    private var isScanned = false

    /// Opens `path`, reads its format, length and tags. `readsPictures` keeps the tag's
    /// pictures for `coverPicture()`; only probing needs them, not playback.
    public init(path: String, readsPictures: Bool = false) throws(DecoderError) {
        let fd = try Self.openRegularFile(path)
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            Glibc.close(fd)
            throw .decodingFailed(String(cString: mpg123_plain_strerror(error)))
        }
        self.handle = handle
        input = FileInput(fd)
        do {
            let (format, frames) = try Self.configure(handle, input: input, readsPictures: readsPictures)
            self.format = format
            self.frameCount = frames
            self.metadata = ID3Reader.metadata(handle, path: path, format: format, frames: frames)
        } catch {
            mpg123_delete(handle)
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
        Glibc.close(input.fd)
    }

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
        if !isScanned {
            guard mpg123_scan(handle) == MPG123_OK.rawValue, input.readFailure == nil else {
                throw input.readFailure ?? .decodingFailed(String(cString: mpg123_strerror(handle)))
            }
            isScanned = true
        }
        let landed = mpg123_seek(handle, off_t(frame), SEEK_SET)
        guard landed >= 0 else { throw .decodingFailed(String(cString: mpg123_strerror(handle))) }
        return Int(landed)
    }

    /// Opens `path` if it is a regular file. The open does not wait: a FIFO named `x.mp3` with
    /// no writer would block a plain open, and with it the prober, forever.
    private static func openRegularFile(_ path: String) throws(DecoderError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .fileNotFound
            case EACCES, EPERM: throw .permissionDenied
            default: throw .decodingFailed(String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw .notAFile
        }
        guard info.st_size > 0 else {
            Glibc.close(fd)
            throw .notMPEGAudio("empty file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func configure(
        _ handle: OpaquePointer, input: FileInput, readsPictures: Bool
    ) throws(DecoderError) -> (AudioFormat, Int?) {
        let pictures = readsPictures ? MPG123_PICTURE.rawValue | MPG123_STORE_RAW_ID3.rawValue : 0
        let flags = Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | pictures)
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0)
        mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_AUTO_RESAMPLE.rawValue), 0)
        guard mpg123_replace_reader_handle(handle, FileInput.read, FileInput.seek, nil) == MPG123_OK.rawValue,
            mpg123_open_handle(handle, Unmanaged.passUnretained(input).toOpaque()) == MPG123_OK.rawValue
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

/// The open file as libmpg123 reads it, through callbacks rather than its own reader: its
/// reader takes a failed read() (EIO from a failing disk or a dropped network share) for the
/// end of the file, so an item would end early without a word. Here the error is kept.
private final class FileInput {
    let fd: Int32
    /// The first read error, once one happened.
    private(set) var readFailure: DecoderError?

    init(_ fd: Int32) { self.fd = fd }

    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = {
        handle, buffer, count in
        let input = Unmanaged<FileInput>.fromOpaque(handle!).takeUnretainedValue()
        while true {
            let result = Glibc.read(input.fd, buffer, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            if input.readFailure == nil { input.readFailure = .readFailed(String(cString: strerror(errno))) }
            return -1
        }
    }

    static let seek: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { handle, offset, whence in
        lseek(Unmanaged<FileInput>.fromOpaque(handle!).takeUnretainedValue().fd, offset, whence)
    }
}
