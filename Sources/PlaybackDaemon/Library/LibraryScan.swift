import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What a scan did.
struct LibraryScanReport: Equatable {
    /// Files whose tags were read (new or changed ones; every file when full).
    var read = 0
    var removed = 0
    var failed = 0
    /// Whether any song was added, changed, taken out, or marked missing or there again.
    var changedSongs = false
    /// Every folder walked (the watch follows them).
    var folders: [String] = []
}

/// One scan of the library, on its thread: the files under the roots (or under one path
/// inside them) against the index. Unchanged files (same size, modification time and inode)
/// are not read again unless `full`; new and changed ones are read with the tag readers
/// playback uses, many at once (`ParallelRuns`); a file renamed or moved keeps its song id
/// (`LibraryWriter.songID`); files gone are taken out, except under a root that is not
/// there or holds nothing while the index has songs in it (a disk not mounted): those are
/// marked missing and kept. Everything is written in one transaction: a scan that fails (a
/// full disk) leaves the index as it was.
struct LibraryScan {
    let writer: LibraryWriter
    /// Opens a file to read its tags and length (no pictures).
    let openTags: AudioDecoderFactory

    func run(
        roots: [String], under path: String?, full: Bool, now: Double, planned: (Int) -> Void,
        progress: @escaping (Int) -> Void
    ) throws(SQLiteError) -> LibraryScanReport {
        var report = LibraryScanReport()
        var walked: [LibraryWalk.File] = []
        var failures: [LibraryFailure] = []
        var removed: [String] = []
        var missingRoots: [String] = []
        var presentRoots: [String] = []
        for root in roots {
            let scope: String
            if let path {
                guard path == root || path.hasPrefix(bytes: Self.folderPrefix(root)) else { continue }
                scope = path
            } else {
                scope = root
            }
            let walk = LibraryWalk.walking(scope)
            let compared = try LibraryComparison(
                walked: walk.files, under: Self.prefix(of: scope), full: full, database: writer.database)
            // A root that is not there, or empty while songs were found in it: its disk is
            // not mounted. Its songs stay, missing, until it is back or a full update.
            if walk.files.isEmpty && compared.indexedCount > 0 && scope == root && !full {
                missingRoots.append(root)
                continue
            }
            presentRoots.append(root)
            walked += compared.toRead
            removed += compared.gone
            failures += walk.failures
            report.folders += walk.folders
        }
        planned(walked.count)
        let read = ParallelRuns.map(walked) { files in
            var songs: [Result<ScannedSong, LibraryFailure>] = []
            songs.reserveCapacity(files.count)
            for (offset, file) in files.enumerated() {
                songs.append(readTags(file))
                if offset % 64 == 63 { progress(64) }
            }
            progress(files.count % 64)
            return songs
        }
        report.removed = removed.count
        try writer.database.transaction { () throws(SQLiteError) in
            for result in read {
                switch result {
                case .success(let song):
                    try writer.write(song, id: try writer.songID(for: song.path, song.identity, now: now))
                case .failure(let failure):
                    failures.append(failure)
                    removed.append(failure.path)
                }
            }
            try writer.remove(removed)
            report.changedSongs = !read.isEmpty || !removed.isEmpty
            for root in missingRoots where try writer.setMissing(true, under: Self.folderPrefix(root)) > 0 {
                report.changedSongs = true
            }
            for root in presentRoots where try writer.setMissing(false, under: Self.folderPrefix(root)) > 0 {
                report.changedSongs = true
            }
            try writer.replaceFailures(under: path.map(Self.prefix(of:)), with: failures)
            if path == nil { try writer.setUpdatedAt(now) }
        }
        report.read = read.count
        report.failed = failures.count
        return report
    }

    /// A folder's path with its trailing slash: what the paths inside it start with.
    static func folderPrefix(_ folder: String) -> String { folder.hasSuffix(bytes: "/") ? folder : folder + "/" }

    /// What the paths a scan of `scope` covers start with: a folder's prefix, or a file's path.
    static func prefix(of scope: String) -> String {
        var info = stat()
        let isFolder = stat(scope, &info) != 0 || info.st_mode & S_IFMT == S_IFDIR
        return isFolder ? folderPrefix(scope) : scope
    }

    private func readTags(_ file: LibraryWalk.File) -> Result<ScannedSong, LibraryFailure> {
        do {
            let decoder = try openTags(DecoderRequest(path: file.path))
            guard let frames = decoder.frameCount, frames > 0 else {
                return .failure(LibraryFailure(path: file.path, reason: "no audio frames"))
            }
            var metadata = decoder.metadata
            metadata.bitsPerSample = decoder.format.sampleFormat.bytes * 8
            metadata.artworkPath = file.folderCover
            return .success(
                ScannedSong(path: file.path, identity: file.identity, metadata: metadata, folderCover: file.folderCover)
            )
        } catch {
            return .failure(LibraryFailure(path: file.path, reason: error.description))
        }
    }
}
