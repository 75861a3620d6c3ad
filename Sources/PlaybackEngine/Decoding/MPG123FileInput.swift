import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The open file as libmpg123 reads it, through callbacks rather than its own reader, for two
/// reasons:
///
/// - libmpg123's reader takes a failed read() (EIO from a failing disk or a dropped network
///   share) for the end of the file, so an item would end early without a word. Here the
///   error is kept.
/// - libmpg123 reads a frame as two small reads (the 4-byte header, then the body), so its own
///   reader makes two system calls per frame: playing an hour into a 2-hour audiobook (then
///   after a scan of the whole file) made about 550,000 of them (0.38 s). Reads are served from a buffer instead: the first read
///   after an open or a seek takes `firstReadSize` bytes (a probe needs only the tags and the
///   first frames), and each following one twice as many, up to `bufferSize`.
///
/// Owned by the decoder that owns the handle; used on one thread at a time.
final class MPG123FileInput {
    /// The most read from the file at a time. A read of at least the next refill's size (a
    /// big picture in a tag) goes straight to the caller.
    static let bufferSize = 32 * 1024
    static let firstReadSize = 4 * 1024

    let fd: Int32
    /// The first read error, once one happened.
    private(set) var readFailure: DecoderError?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    /// File offset of `buffer`'s first byte; the descriptor's offset is `bufferStart + filled`.
    private var bufferStart: off_t = 0
    /// Bytes of the file in `buffer`.
    private var filled = 0
    /// Bytes of `buffer` already handed out: the reader's position is `bufferStart + cursor`.
    private var cursor = 0
    /// Bytes the next refill asks for.
    private var readSize = firstReadSize

    init(_ fd: Int32) { self.fd = fd }

    deinit { buffer.deallocate() }

    /// Copies up to `count` bytes to `destination`; 0 at the end of the file, -1 on an error.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            if cursor == filled {
                if count - done >= readSize {
                    // Large: straight to the caller, past the (empty) buffer.
                    let got = readFile(into: destination + done, count: count - done)
                    if got < 0 { return done > 0 ? done : -1 }
                    bufferStart += off_t(filled + got)
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

    /// Moves the reader's position as `lseek` does; within the buffer no system call is made.
    func seek(to offset: off_t, whence: Int32) -> off_t {
        let target: off_t
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = bufferStart + off_t(cursor) + offset
        default:
            let moved = lseek(fd, offset, whence)
            if moved >= 0 { forgetBuffer(at: moved) }
            return moved
        }
        guard target >= 0 else {
            errno = EINVAL
            return -1
        }
        if target >= bufferStart && target <= bufferStart + off_t(filled) {
            cursor = Int(target - bufferStart)
            return target
        }
        let moved = lseek(fd, target, SEEK_SET)
        if moved >= 0 { forgetBuffer(at: moved) }
        return moved
    }

    private func forgetBuffer(at offset: off_t) {
        bufferStart = offset
        filled = 0
        cursor = 0
        readSize = Self.firstReadSize
    }

    /// Replaces the buffer with the next bytes of the file; returns how many, -1 on an error.
    private func refill() -> Int {
        let got = readFile(into: buffer.baseAddress!, count: readSize)
        guard got >= 0 else { return -1 }
        readSize = min(readSize * 2, Self.bufferSize)
        bufferStart += off_t(filled)
        filled = got
        cursor = 0
        return got
    }

    private func readFile(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = Glibc.read(fd, destination, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            if readFailure == nil { readFailure = .readFailed(String(cString: strerror(errno))) }
            return -1
        }
    }

    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = {
        handle, destination, count in
        guard let destination else { return -1 }
        return Unmanaged<MPG123FileInput>.fromOpaque(handle!).takeUnretainedValue().read(
            into: destination, count: count)
    }

    static let seek: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { handle, offset, whence in
        Unmanaged<MPG123FileInput>.fromOpaque(handle!).takeUnretainedValue().seek(to: offset, whence: whence)
    }
}
