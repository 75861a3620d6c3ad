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

    private(set) var files: [File] = []
    private(set) var failures: [LibraryFailure] = []
    /// Every folder read, for the watch.
    private(set) var folders: [String] = []
    private var visited: Set<[UInt64]> = []
    static let audioExtensions = AudioFileFormat.allExtensions
    /// Deepest folder nesting followed.
    static let maximumDepth = 64

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
            files.append(File(path: path, identity: Self.identity(info), folderCover: Self.cover(in: parent)))
        }
    }

    private mutating func folder(_ path: String, depth: Int) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return failures.append(LibraryFailure(path: path, reason: Self.describe(errno)))
        }
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        guard depth < Self.maximumDepth else {
            return failures.append(
                LibraryFailure(path: path, reason: "nested more than \(Self.maximumDepth) folders deep"))
        }
        guard let directory = opendir(path) else {
            return failures.append(
                LibraryFailure(path: path, reason: "cannot read the folder: \(Self.describe(errno))"))
        }
        defer { closedir(directory) }
        folders.append(path)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { pointer -> String? in
                    String(validatingCString: pointer) ?? (pointer.pointee == 0x2E ? "." : nil)
                }
            }
            guard let name else {
                failures.append(LibraryFailure(path: path + "/?", reason: "a file name in this folder is not UTF-8"))
                continue
            }
            if !name.hasPrefix(bytes: ".") { names.append(name) }
        }
        names.sort()
        // The cover from the names just read, and each entry's identity relative to the open
        // folder (fstatat): no path looked up from the root again, 100,000 times.
        let cover = ArtworkStore.sideFiles.first { names.contains($0) }.map { path + "/" + $0 }
        let folderFD = dirfd(directory)
        for name in names {
            let child = path.hasSuffix(bytes: "/") ? path + name : path + "/" + name
            var info = stat()
            guard fstatat(folderFD, name, &info, 0) == 0 else {
                // A dangling link, or a file gone since the folder was read.
                if Self.audioExtensions.contains(FileName.extension(name)) {
                    failures.append(LibraryFailure(path: child, reason: Self.describe(errno)))
                }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: folder(child, depth: depth + 1)
            case S_IFREG where Self.audioExtensions.contains(FileName.extension(name)):
                files.append(File(path: child, identity: Self.identity(info), folderCover: cover))
            default: continue
            }
        }
    }

    private static func identity(_ info: stat) -> LibraryFileIdentity {
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
