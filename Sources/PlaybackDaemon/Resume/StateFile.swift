import ControlProtocol
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The resume state on disk: `$STATE_DIRECTORY/state.json` under systemd, else
/// `$XDG_STATE_HOME/playbackd/state.json` (`~/.local/state/playbackd/state.json`).
/// Written with `FileSystem.replace` (a temporary file, fsync, rename, fsync of the
/// directory), so a crash leaves the old file or the new one, never a torn one.
struct StateFile: Sendable {
    let path: String

    static func defaultPath(environment: Environment) -> String? {
        if let directory = XDGDirectories.systemd("STATE_DIRECTORY", environment: environment) {
            return directory + "/state.json"
        }
        return XDGDirectories.state(environment: environment).map { $0 + "/state.json" }
    }

    /// What reading the file found.
    enum Loaded {
        case none
        /// The state, and its item lines in the file (`nil` in a file of version 1).
        case state(ResumeState, lines: ItemLinesOnDisk?)
        /// A long queue's head (`ResumeState.head`): to show while the file is read whole with
        /// `load(whole:)`, on a thread.
        case head(ResumeState, QueueLoading, rest: OpenStateFile)
        /// The file was unreadable as a state; it was renamed to `movedTo` (nil if that failed).
        case corrupt(StateFileError, movedTo: String?)
    }

    /// Largest state file read (100,000 items take about 16 MB).
    static let maximumBytes = 256 << 20
    /// From how many items the file is read in two steps (`Loaded.head`): 100,000 items take
    /// about 120 ms to read, their head (two lines) under a millisecond.
    static let headFrom = 5_000

    func load() -> Loaded {
        let file: OpenStateFile
        do {
            file = OpenStateFile(try FileSystem.openRegularFile(path))
        } catch .missing {
            return .none
        } catch {
            return setAside(StateFileError("cannot read: \(error)"))
        }
        if let (head, loading) = head(of: file) { return .head(head, loading, rest: file) }
        return load(whole: file)
    }

    /// A long queue's head, from two lines of the file; nil when it has none, or when they
    /// cannot be read (the whole file then says why).
    private func head(of file: OpenStateFile) -> (ResumeState, QueueLoading)? {
        guard let header = try? FileSystem.readLine(file.fd, at: 0, maximumBytes: Self.maximumBytes) else { return nil }
        return try? ResumeState.head(headerLine: header, minimumItems: Self.headFrom) { offset in
            // From the newline before it: an offset that is not a line's start finds none.
            guard offset >= 0,
                let line = try? FileSystem.readLine(
                    file.fd, at: header.count + offset, maximumBytes: Self.maximumBytes),
                line.isEmpty
            else { return nil }
            return try? FileSystem.readLine(file.fd, at: header.count + offset + 1, maximumBytes: Self.maximumBytes)
        }
    }

    /// Reads the whole file: the state, or the file set aside.
    func load(whole file: OpenStateFile) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(file.fd, maximumBytes: Self.maximumBytes)
        } catch {
            return setAside(StateFileError("cannot read: \(error)"))
        }
        do throws(StateFileError) {
            let (state, layout) = try ResumeState.read(fileBytes: bytes)
            let lines = layout.flatMap { layout in
                WrittenStateFile(fd: file.fd).map { ItemLinesOnDisk(layout: layout, file: $0) }
            }
            return .state(state, lines: lines)
        } catch {
            return setAside(error)
        }
    }

    private func setAside(_ error: StateFileError) -> Loaded {
        var stamp = timespec()
        clock_gettime(CLOCK_REALTIME, &stamp)
        let aside = "\(path).corrupt-\(stamp.tv_sec)"
        return .corrupt(error, movedTo: rename(path, aside) == 0 ? aside : nil)
    }

    /// Writes `content` atomically and durably: the error text on failure, else the new file
    /// as it was written, from which the next save can copy the item lines. No descriptor is
    /// kept between saves: the copy opens the file again, and only if it is still that file.
    func save(_ content: StateFileContent) -> (failure: String?, written: WrittenStateFile?) {
        var source: Int32 = -1
        defer { if source >= 0 { close(source) } }
        if case .copy(let file, _, _) = content.items {
            source = open(path, O_RDONLY | O_CLOEXEC)
            guard source >= 0, WrittenStateFile(fd: source) == file else {
                return ("the state file changed since it was written", nil)
            }
        }
        let (failure, fd) = FileSystem.replace(path, durable: true, keepingOpen: true) { fd in
            if let failure = FileSystem.write(content.header, to: fd) { return failure }
            switch content.items {
            case .bytes(let bytes): return FileSystem.write(bytes, to: fd)
            case .copy(_, let offset, let count): return FileSystem.copy(count, from: source, at: offset, to: fd)
            }
        }
        guard let fd else { return (failure, nil) }
        defer { close(fd) }
        return (failure, WrittenStateFile(fd: fd))
    }
}

/// A state file as a save left it (its device, inode, size and modification time): a later
/// save copies from the file at the path only while it is this one, unchanged.
struct WrittenStateFile: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec

    init?(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        (device, inode, size, modified) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size), info.st_mtim)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.device, lhs.inode, lhs.size) == (rhs.device, rhs.inode, rhs.size)
            && (lhs.modified.tv_sec, lhs.modified.tv_nsec) == (rhs.modified.tv_sec, rhs.modified.tv_nsec)
    }
}

/// Where a state file's item lines are: under which columns, how many, where each begins among
/// them, and where they are in the file (`offset`, `length` in bytes).
struct StateItemLinesLayout: Sendable {
    var columns: [StateItemLines.Column]
    var count: Int
    var lineStarts: [UInt32]
    var offset: Int
    var length: Int
}

/// A state file's item lines on disk: where they are in it, and the file, which a save copies
/// them from only while it is still that one, unchanged.
struct ItemLinesOnDisk: Sendable {
    var layout: StateItemLinesLayout
    var file: WrittenStateFile
}

/// What a save writes: the header line, then the item lines, new or copied from the file the
/// last save wrote (they are the same while the items are: a 100,000-item queue's lines are
/// 16 MB, and the position is saved every 5 s while playing).
struct StateFileContent: Sendable {
    enum ItemLines: Sendable {
        case bytes([UInt8])
        /// `count` bytes from `offset` of the file at the path, which must still be `file`.
        case copy(WrittenStateFile, offset: Int, count: Int)
    }

    var header: [UInt8]
    var items: ItemLines

}

/// The state file, open: read in two steps from one descriptor (the same file, whatever
/// replaces it meanwhile), closed with the last reference.
final class OpenStateFile: Sendable {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}
