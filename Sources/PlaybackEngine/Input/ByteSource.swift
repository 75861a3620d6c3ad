#if canImport(Glibc)
    import Glibc
#endif

/// Where a decoder's bytes come from: a file (`FileSource`) or an HTTP stream (`HTTPSource`).
/// A `DecoderInput` buffers it for the decoding libraries, which read and seek through their own
/// callback interfaces, so every format plays from a file or a stream alike.
///
/// Used by one thread at a time (the one decoding).
protocol ByteSource: AnyObject {
    /// Bytes in all, when known: nil for a live stream, which has no end.
    var size: Int? { get }
    /// The first error, once one happened (it is kept: a library may take a failed read for
    /// the end of the file).
    var failure: DecoderError? { get }
    /// Copies up to `count` bytes from `offset` to `destination`: how many (fewer only at the end
    /// or an error), 0 at the end, -1 on an error (`failure` says which). `offset` is where the
    /// previous read ended, unless a `seek` came between.
    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count: Int) -> Int
    /// Prepares the next read to start at `offset` (which may lie past the end); false when the
    /// source cannot move there (a live stream, a server that ignores `Range`), `errno` set.
    func seek(to offset: Int) -> Bool
}

/// A regular file: read(2) and lseek(2) on a descriptor it owns.
final class FileSource: ByteSource {
    let fd: Int32
    let size: Int?
    private(set) var failure: DecoderError?

    init(_ fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }

    deinit { Glibc.close(fd) }

    /// Opens `path` if it is a regular file. The open does not wait: a FIFO named `x.mp3` with
    /// no writer would block a plain open, and with it the prober, forever.
    static func open(_ path: String) throws(DecoderError) -> FileSource {
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
        return FileSource(fd, size: Int(info.st_size))
    }

    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = Glibc.read(fd, destination, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            if failure == nil { failure = .readFailed(String(cString: strerror(errno))) }
            return -1
        }
    }

    func seek(to offset: Int) -> Bool { lseek(fd, off_t(offset), SEEK_SET) >= 0 }
}
