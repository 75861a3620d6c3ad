import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The audio files under a folder, with the identity of each (size, modification time, inode)
/// and the cover file of each folder: what a scan compares with the index. Hidden files and
/// folders are passed over; a folder reached twice (a symbolic link loop) is read once; what
/// cannot be read, and a name that is not UTF-8, is a failure with its reason.
struct LibraryWalk {
    struct File {
        var path: String
        var identity: LibraryFileIdentity
        var folderCover: String?
    }

    private(set) var files = WalkedFiles()
    private(set) var failures: [LibraryFailure] = []
    /// Every folder read, for the watch.
    private(set) var folders: [String] = []
    /// A folder's device and inode.
    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }
    /// The identity of every folder read.
    private var visited: Set<FolderIdentity> = []
    /// Each folder read with its identity, in order (for joining walks done apart).
    private var read: [(identity: FolderIdentity, path: String)] = []
    /// The first folder's subfolders, left for walks of their own (`walking`), each with how
    /// many files and failures came before it.
    private var deferred: [(path: String, files: Int, failures: Int)]? = nil
    static let audioExtensions = AudioFileFormat.allExtensions
    /// Deepest folder nesting followed.
    static let maximumDepth = 64

    /// Walks `path` as `walk` does, its first folder's subfolders shared out among threads
    /// (`ParallelRuns`; on 2 cores an update with nothing changed takes two thirds of the time
    /// alone). The walks are joined in the order one walk would have found everything, and a
    /// folder a walk before had already read (reached again by a link) is dropped with what it
    /// holds, as one walk would have passed it over.
    static func walking(_ path: String) -> LibraryWalk {
        var top = LibraryWalk()
        top.deferred = []
        top.walk(path)
        guard let deferred = top.deferred, !deferred.isEmpty else { return top }
        // One walk a thread, through its run of subfolders in order, each subfolder's start
        // marked: a walk a subfolder made thousands of small arrays, and the heap they left
        // kept 7 MiB more after a scan of 100,000 songs.
        let seed = top.visited
        let runs = ParallelRuns.map(deferred, minimum: 2) { slice in
            var walk = LibraryWalk()
            walk.visited = seed
            var starts: [Mark] = []
            for subfolder in slice {
                starts.append(walk.mark)
                walk.folder(subfolder.path, depth: 1)
            }
            return [(walk, starts)]
        }
        var joined = LibraryWalk()
        joined.visited = top.visited
        joined.read = top.read
        joined.folders = top.folders
        joined.files.reserveCapacity(
            top.files.count + runs.reduce(0) { $0 + $1.0.files.count },
            pathBytes: top.files.pathByteCount + runs.reduce(0) { $0 + $1.0.files.pathByteCount })
        var next = 0
        var (files, failures) = (0, 0)
        for (walk, starts) in runs {
            for (offset, start) in starts.enumerated() {
                let subfolder = deferred[next]
                next += 1
                joined.files.append(contentsOf: top.files, files..<subfolder.files)
                joined.failures += top.failures[failures..<subfolder.failures]
                (files, failures) = (subfolder.files, subfolder.failures)
                joined.join(walk, from: start, to: offset + 1 < starts.count ? starts[offset + 1] : walk.mark)
            }
        }
        joined.files.append(contentsOf: top.files, files..<top.files.count)
        joined.failures += top.failures[failures...]
        return joined
    }

    /// How far a walk had come: its files, failures and folders read.
    private typealias Mark = (files: Int, failures: Int, read: Int)
    private var mark: Mark { (files.count, failures.count, read.count) }

    /// Adds what `walk` found between `start` and `end` (one subfolder's walk) after what this
    /// one found, less the folders this one already read and what they hold.
    private mutating func join(_ walk: LibraryWalk, from start: Mark, to end: Mark) {
        var dropped: [String] = []
        for (identity, path) in walk.read[start.read..<end.read] {
            guard !dropped.contains(where: { path.hasPrefix(bytes: $0) }) else { continue }
            guard visited.insert(identity).inserted else {
                dropped.append(path + "/")
                continue
            }
            read.append((identity, path))
            folders.append(path)
        }
        let kept = { (path: String) in !dropped.contains { path.hasPrefix(bytes: $0) } }
        files.append(contentsOf: walk.files, start.files..<end.files, where: dropped.isEmpty ? nil : { kept($0.path) })
        failures += walk.failures[start.failures..<end.failures].lazy.filter { dropped.isEmpty || kept($0.path) }
    }

    /// Walks `path`: a folder (recursively) or one file.
    mutating func walk(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return failures.append(LibraryFailure(path: path, reason: Self.describe(errno)))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            folder(path, depth: 0)
        } else if Self.audioExtensions.contains(FileName.extension(path)) {
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            files.append(
                path: Array(path.utf8), name: EmptyCollection(), Self.identity(info),
                cover: files.addCover(Self.cover(in: parent)))
        }
    }

    /// Reads the folder at `path`: opened by its `name` in the open folder `parent` when
    /// there is one (no path looked up from the root again, 12,000 times for 100,000 songs),
    /// its entries' kinds from the folder itself, and a stat of only what needs one: an audio
    /// file (its identity), a link, or an entry whose kind the file system does not say.
    private mutating func folder(_ path: String, depth: Int, parent: Int32? = nil, name: String? = nil) {
        let fd =
            if let parent, let name {
                openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            } else {
                open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            }
        guard fd >= 0 else {
            return failures.append(
                LibraryFailure(path: path, reason: "cannot read the folder: \(Self.describe(errno))"))
        }
        guard let directory = fdopendir(fd) else {
            close(fd)
            return failures.append(
                LibraryFailure(path: path, reason: "cannot read the folder: \(Self.describe(errno))"))
        }
        defer { closedir(directory) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return failures.append(LibraryFailure(path: path, reason: Self.describe(errno)))
        }
        let identity = FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard visited.insert(identity).inserted else { return }
        guard depth < Self.maximumDepth else {
            return failures.append(
                LibraryFailure(path: path, reason: "nested more than \(Self.maximumDepth) folders deep"))
        }
        folders.append(path)
        read.append((identity, path))
        var names = FolderNames()
        while let entry = readdir(directory) {
            let added = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) {
                    names.add(UnsafeBufferPointer(start: $0, count: strlen($0)), kind: entry.pointee.d_type)
                }
            }
            if !added {
                failures.append(LibraryFailure(path: path + "/?", reason: "a file name in this folder is not UTF-8"))
            }
        }
        names.sort()
        let cover = files.addCover(
            ArtworkStore.sideFiles.first { side in names.indices.contains { names.name(at: $0, equals: side) } }.map {
                path + "/" + $0
            })
        let prefix = path.hasSuffix(bytes: "/") ? path : path + "/"
        let prefixBytes = Array(prefix.utf8)
        for index in names.indices {
            let kind = names.kind(at: index)
            let isAudio = names.withName(at: index) { Self.audioExtensions.contains(FileName.extension(ofName: $0)) }
            var mode = kind == DT_DIR ? S_IFDIR : kind == DT_REG ? S_IFREG : 0
            // A regular file that is not audio needs nothing more; an audio file its identity.
            if mode == S_IFREG && !isAudio { continue }
            var info = stat()
            if mode != S_IFDIR {
                guard names.withCName(at: index, { fstatat(fd, $0, &info, 0) }) == 0 else {
                    // A dangling link, or a file gone since the folder was read.
                    if isAudio {
                        failures.append(
                            LibraryFailure(path: prefix + names.name(at: index), reason: Self.describe(errno)))
                    }
                    continue
                }
                mode = info.st_mode & S_IFMT
            }
            switch mode {
            case S_IFDIR where depth == 0 && deferred != nil:
                deferred?.append((prefix + names.name(at: index), files.count, failures.count))
            case S_IFDIR:
                let name = names.name(at: index)
                folder(prefix + name, depth: depth + 1, parent: fd, name: name)
            case S_IFREG where isAudio:
                names.withName(at: index) {
                    files.append(path: prefixBytes, name: $0, Self.identity(info), cover: cover)
                }
            default: continue
            }
        }
    }

    /// The identity of the file `info` describes (as `stat` gives it).
    static func identity(_ info: stat) -> LibraryFileIdentity {
        LibraryFileIdentity(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            inode: Int64(bitPattern: UInt64(info.st_ino)))
    }

    private static func cover(in folder: String) -> String? {
        ArtworkStore.sideFiles.lazy.map { folder + "/" + $0 }.first { access($0, R_OK) == 0 }
    }

    static func describe(_ error: Int32) -> String {
        switch error {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES: "permission denied"
        case ELOOP: "too many levels of symbolic links"
        default: String(cString: strerror(error))
        }
    }
}
