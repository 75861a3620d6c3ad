import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// An open audio file as the decoding libraries read it: through callbacks rather than their
/// own readers (libmpg123's reader handle, libFLAC's stream callbacks), for two reasons:
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
/// Owns its descriptor. Owned by one decoder; used on one thread at a time.
public final class FileInput {
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

    /// The file's size in bytes when it was opened.
    let size: Int

    init(_ fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }

    deinit {
        buffer.deallocate()
        Glibc.close(fd)
    }

    /// Opens `path` if it is a regular file. The open does not wait: a FIFO named `x.mp3` with
    /// no writer would block a plain open, and with it the prober, forever.
    static func open(_ path: String) throws(DecoderError) -> FileInput {
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
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return FileInput(fd, size: Int(info.st_size))
    }

    /// The file's first `count` bytes (fewer in a shorter file, none after a read error); the
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
}
