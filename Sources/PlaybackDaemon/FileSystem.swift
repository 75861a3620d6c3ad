import CSystemShim
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The whole-file operations the daemon needs (reading a file at once, creating a directory
/// path, replacing a file atomically), on plain system calls. Used by the configuration file,
/// the state file, playlists and the artwork store.
enum FileSystem {
    /// Why a file could not be read.
    enum ReadError: Error, CustomStringConvertible {
        /// It does not exist (`ENOENT`).
        case missing
        /// A system call failed with this `errno`.
        case failed(Int32)
        /// It is larger than the limit the caller gave, in bytes.
        case tooLarge(Int)
        /// It is a FIFO, a device or a directory, not a regular file.
        case notAFile

        var description: String {
            switch self {
            case .missing: describe(ENOENT)
            case .failed(let error): describe(error)
            case .tooLarge(let limit): "larger than \(limit) bytes"
            case .notAFile: "not a regular file"
            }
        }
    }

    /// What tells one version of a file from another: its size and modification time
    /// (milliseconds); nil when it cannot be looked at.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000)
    }

    /// Whether `path` is a folder (following links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` is a regular file (following links): not a folder, FIFO or device.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The file's bytes; at most `maximumBytes`. Only a regular file is read: a FIFO would block
    /// the reader until some writer appeared, and a device (`/dev/zero`) never ends.
    static func readAll(_ path: String, maximumBytes: Int) throws(ReadError) -> [UInt8] {
        let fd = try openRegularFile(path)
        defer { close(fd) }
        return try readAll(fd, maximumBytes: maximumBytes)
    }

    /// The whole of the open file `fd`, from its start, whatever was read of it before.
    static func readAll(_ fd: Int32, maximumBytes: Int) throws(ReadError) -> [UInt8] {
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        guard size <= maximumBytes else { throw .tooLarge(maximumBytes) }
        // Straight into an array of the file's size and a byte more (to see its end at once):
        // 16 MB in 64 KB chunks appended took 14 ms, in one read 4. The array is left
        // uninitialised until read (zeroing it first was one more pass over 16 MB).
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, filled in
            filled = 0
            while filled < buffer.count {
                let count = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                filled += count
            }
        }
        guard failure == 0 else { throw .failed(failure) }
        // It grew meanwhile: the rest in chunks.
        var chunk = [UInt8](repeating: 0, count: bytes.count == size + 1 ? 65_536 : 0)
        while !chunk.isEmpty {
            guard bytes.count <= maximumBytes else { throw .tooLarge(maximumBytes) }
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(bytes.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .failed(errno) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maximumBytes else { throw .tooLarge(maximumBytes) }
        return bytes
    }

    /// The line of the open file `fd` that begins at byte `offset`, without its newline (the
    /// file's last line may have none); nil at or past the end. At most `maximumBytes`.
    static func readLine(_ fd: Int32, at offset: Int, maximumBytes: Int) throws(ReadError) -> [UInt8]? {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset + line.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .failed(errno) }
            if count == 0 { return line.isEmpty ? nil : line }
            if let end = chunk[..<count].firstIndex(of: UInt8(ascii: "\n")) { return line + chunk[..<end] }
            line += chunk[..<count]
            guard line.count <= maximumBytes else { throw .tooLarge(maximumBytes) }
            chunk = [UInt8](repeating: 0, count: min(max(4_096, line.count), 1 << 20))
        }
    }

    /// Opens `path` for reading if it is a regular file. The open itself does not wait (a FIFO
    /// with no writer would block a plain open); the descriptor then blocks as usual.
    static func openRegularFile(_ path: String) throws(ReadError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw errno == ENOENT ? .missing : .failed(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .notAFile
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Creates `directory` and its missing parents with mode 0700. The error text on failure.
    static func makeDirectories(_ directory: String) -> String? {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                return "cannot create \(prefix): \(describe(errno))"
            }
        }
        return nil
    }

    /// Replaces the file at `path` with `bytes` (mode 0600) so that a reader sees the old file
    /// or the new one, never part of one: a temporary file in the same directory, then
    /// `rename`. `durable` also `fsync`s the file and the directory, so the new file survives
    /// a crash. Creates the directory when needed. The error text on failure.
    static func replace(_ path: String, with bytes: [UInt8], durable: Bool) -> String? {
        replace(path, durable: durable, keepingOpen: false) { fd in write(bytes, to: fd) }.failure
    }

    /// `replace(_:with:durable:)` with the contents that `fill` writes to the temporary file's
    /// descriptor (it returns the error text on failure). With `keepingOpen`, the new file's
    /// descriptor (open for reading and writing) is returned for the caller to close.
    static func replace(
        _ path: String, durable: Bool, keepingOpen: Bool, fill: (Int32) -> String?
    ) -> (failure: String?, fd: Int32?) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if let failure = makeDirectories(directory) { return (failure, nil) }
        // Unique to the thread: two probing threads can store the same picture at once.
        let temporary = path + ".tmp\(Int(getpid())).\(Int(bitPattern: pthread_self()))"
        let fd = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return ("cannot create \(temporary): \(describe(errno))", nil) }
        let failure =
            fill(fd).map { "cannot write \(temporary): \($0)" }
            ?? (durable && fsync(fd) != 0 ? "cannot sync \(temporary): \(describe(errno))" : nil)
        if let failure {
            close(fd)
            unlink(temporary)
            return (failure, nil)
        }
        guard rename(temporary, path) == 0 else {
            let failure = "cannot replace \(path): \(describe(errno))"
            close(fd)
            unlink(temporary)
            return (failure, nil)
        }
        if durable {
            let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryFD >= 0 {
                fsync(directoryFD)
                close(directoryFD)
            }
        }
        if keepingOpen { return (nil, fd) }
        close(fd)
        return (nil, nil)
    }

    /// Writes all of `bytes` to `fd`; the error text on failure.
    static func write(_ bytes: [UInt8], to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return describe(count < 0 ? errno : EIO) }
            written += count
        }
        return nil
    }

    /// Appends `count` bytes of `source` from `offset` to `fd`, in the kernel where it can
    /// (`copy_file_range`); the error text on failure, also when `source` holds fewer bytes.
    static func copy(_ count: Int, from source: Int32, at offset: Int, to fd: Int32) -> String? {
        var sourceOffset = Int64(offset)
        var copied = 0
        while copied < count {
            let done = playbackd_copy_file_range(source, &sourceOffset, fd, UInt(count - copied))
            if done < 0 && errno == EINTR { continue }
            if done < 0 && [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) {
                return copyByReading(count - copied, from: source, at: Int(sourceOffset), to: fd)
            }
            guard done > 0 else { return done == 0 ? "the file copied from ended early" : describe(errno) }
            copied += done
        }
        return nil
    }

    /// `copy` through a buffer, where the file systems cannot copy in the kernel.
    private static func copyByReading(_ count: Int, from source: Int32, at offset: Int, to fd: Int32) -> String? {
        var chunk = [UInt8](repeating: 0, count: min(count, 1 << 16))
        var copied = 0
        while copied < count {
            let done = chunk.withUnsafeMutableBytes {
                pread(source, $0.baseAddress, min($0.count, count - copied), off_t(offset + copied))
            }
            if done < 0 && errno == EINTR { continue }
            guard done > 0 else { return done == 0 ? "the file copied from ended early" : describe(errno) }
            if let failure = write(Array(chunk[..<done]), to: fd) { return failure }
            copied += done
        }
        return nil
    }

    /// The names in `directory` (without `.` and `..`); empty when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// An `errno` as text.
    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
