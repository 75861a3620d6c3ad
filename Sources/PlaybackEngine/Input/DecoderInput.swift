import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of one item as the decoding libraries read them: through callbacks rather than
/// their own readers (libmpg123's reader handle, libFLAC's stream callbacks, opusfile's and
/// vorbisfile's callbacks, an `AVIOContext`), from a file or an HTTP stream alike (`ByteSource`),
/// and for two more reasons:
///
/// - A library's own reader may take a failed read() (EIO from a failing disk or a dropped
///   network share) for the end of the file (libmpg123 does), so an item would end early
///   without a word. Here the error is kept.
/// - libmpg123 reads a frame as two small reads (the 4-byte header, then the body), so its own
///   reader makes two system calls per frame: playing an hour into a 2-hour audiobook (then
///   after a scan of the whole file) made about 550,000 of them (0.38 s). Reads are served from a buffer instead: the first read
///   after an open or a seek takes `firstReadSize` bytes (a probe needs only the tags and the
///   first frames), and each following one twice as many, up to `bufferSize`.
///
/// Owns its source. Owned by one decoder; used on one thread at a time.
public final class DecoderInput {
    /// The most read from the source at a time. A read of at least the next refill's size (a
    /// big picture in a tag) goes straight to the caller.
    static let bufferSize = 32 * 1024
    static let firstReadSize = 4 * 1024

    let source: any ByteSource
    /// The first read error, once one happened.
    var readFailure: DecoderError? { source.failure }
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    /// Offset of `buffer`'s first byte; the source's own position is `bufferStart + filled`.
    private var bufferStart = 0
    /// Bytes of the source in `buffer`.
    private var filled = 0
    /// Bytes of `buffer` already handed out: the reader's position is `bufferStart + cursor`.
    private var cursor = 0
    /// Bytes the next refill asks for.
    private var readSize = firstReadSize

    /// The item's size in bytes when it was opened; nil for a live stream.
    var size: Int? { source.size }

    init(_ source: any ByteSource) {
        self.source = source
    }

    deinit { buffer.deallocate() }

    /// Opens `path` if it is a regular file (`FileSource.open`).
    static func open(_ path: String) throws(DecoderError) -> DecoderInput {
        DecoderInput(try FileSource.open(path))
    }

    /// Whether the reader's position is at or past the end of a source of known size.
    var isAtEnd: Bool {
        guard let size else { return false }
        return bufferStart + cursor >= size
    }

    /// The first `count` bytes (fewer in a shorter source, none after a read error); the
    /// position is back at the start afterwards.
    func head(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count) }
        _ = seek(to: 0, whence: SEEK_SET)
        return Array(bytes.prefix(max(0, got)))
    }

    /// Copies up to `count` bytes to `destination`; 0 at the end of the file, -1 on an error.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            if cursor == filled {
                if count - done >= readSize {
                    // Large: straight to the caller, past the (empty) buffer.
                    let got = source.read(at: bufferStart + filled, into: destination + done, count: count - done)
                    if got < 0 { return done > 0 ? done : -1 }
                    bufferStart += filled + got
                    filled = 0
                    cursor = 0
                    return done + got
                }
                let got = refill()
                if got < 0 { return done > 0 ? done : -1 }
                if got == 0 { break }
            }
            let chunk = min(count - done, filled - cursor)
            (destination + done).copyMemory(from: buffer.baseAddress! + cursor, byteCount: chunk)
            cursor += chunk
            done += chunk
        }
        return done
    }

    /// Moves the reader's position as `lseek` does (`SEEK_END` only with a known size); within
    /// the buffer the source is not asked.
    func seek(to offset: off_t, whence: Int32) -> off_t {
        let target: Int
        switch whence {
        case SEEK_SET: target = Int(offset)
        case SEEK_CUR: target = bufferStart + cursor + Int(offset)
        case SEEK_END:
            guard let size else {
                errno = ESPIPE
                return -1
            }
            target = size + Int(offset)
        default:
            errno = EINVAL
            return -1
        }
        guard target >= 0 else {
            errno = EINVAL
            return -1
        }
        if target >= bufferStart && target <= bufferStart + filled {
            cursor = target - bufferStart
            return off_t(target)
        }
        guard source.seek(to: target) else { return -1 }
        bufferStart = target
        filled = 0
        cursor = 0
        readSize = Self.firstReadSize
        return off_t(target)
    }

    /// Replaces the buffer with the next bytes of the source; returns how many, -1 on an error.
    private func refill() -> Int {
        let got = source.read(at: bufferStart + filled, into: buffer.baseAddress!, count: readSize)
        guard got >= 0 else { return -1 }
        readSize = min(readSize * 2, Self.bufferSize)
        bufferStart += filled
        filled = got
        cursor = 0
        return got
    }
}

extension DecoderInput {
    /// The input a decoder library's callback is given back as its opaque pointer.
    static func from(_ opaque: UnsafeMutableRawPointer?) -> DecoderInput {
        Unmanaged<DecoderInput>.fromOpaque(opaque!).takeUnretainedValue()
    }

    /// The opaque pointer a decoder library's callbacks are given (the input stays owned by
    /// its decoder).
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// `seek` for a library that wants 0 or -1.
    func seekStatus(to offset: Int64, whence: Int32) -> Int32 { seek(to: off_t(offset), whence: whence) >= 0 ? 0 : -1 }

    /// Where reading stands.
    var position: Int64 { Int64(seek(to: 0, whence: SEEK_CUR)) }
}
