import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the library current while the daemon runs: an inotify watch on every folder of the
/// library, read on the event loop. A change (a file written and closed, created, moved in or
/// out, deleted; a folder made or removed) notes its folder; once no change has come for
/// `quietSeconds`, the folders noted are handed to `onChanges` for a scan, so a copied album
/// is scanned once, whole. Watches are added from the library's thread as scans find folders
/// (`inotify_add_watch` is a system call like any other); the descriptors' folders are shared
/// behind a lock.
final class LibraryWatch {
    static let quietSeconds = 1.0
    private let fd: Int32
    private let loop: EventLoop
    private let timer: OneShotTimer
    /// Each watch descriptor's folder, and the folders watched.
    private let folders = Locked(WatchedFolders())
    /// Folders changed since the last hand-over (event loop only).
    private var changed: Set<String> = []
    var onChanges: ([String]) -> Void = { _ in }

    /// Nil when inotify cannot be had (`errno` says why).
    init?(loop: EventLoop) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.loop = loop
        timer = OneShotTimer(loop: loop, accuracy: 0.05)
        loop.watch(fd) { [unowned self] _ in readEvents() }
    }

    deinit {
        loop.unwatch(fd)
        close(fd)
    }

    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ONLYDIR)

    /// Watches `paths` (folders) not watched yet, or all of them `again` (a scan with nothing
    /// changed adds none of its 12,000); returns how many could not be watched (the user's
    /// inotify limit reached). Any thread.
    @discardableResult
    func watch(_ paths: [String], again: Bool = false) -> Int {
        var new = paths
        if !again {
            // The watched paths are gathered outside the lock: the event loop takes it too.
            let watched = folders.withLock { $0 }.paths
            new = paths.filter { !watched.contains($0) }
        }
        var failed = 0
        for path in new {
            let descriptor = inotify_add_watch(fd, path, Self.mask)
            if descriptor < 0 {
                failed += 1
                continue
            }
            folders.withLock { $0.set(descriptor, path) }
        }
        folders.withLock { $0.compact() }
        return failed
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let known = folders.withLock { $0 }
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                if let folder = known.path(of: descriptor) {
                    changed.insert(folder)
                    if mask & UInt32(IN_IGNORED) != 0 { folders.withLock { $0.remove(descriptor) } }
                    // Moved, its path may be made again: a watch of that path is then new.
                    if mask & UInt32(IN_MOVE_SELF) != 0 { folders.withLock { $0.moved(descriptor) } }
                    // A folder made or moved in: watched at once, so that the files copied into
                    // it keep the scan waiting until the copy is done; scanned with its files.
                    if mask & UInt32(IN_ISDIR) != 0, length > 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        let name = buffer.withUnsafeBytes { raw in
                            let start = raw.baseAddress!.advanced(by: offset + MemoryLayout<inotify_event>.size)
                            return String(cString: start.assumingMemoryBound(to: CChar.self))
                        }
                        changed.insert(folder + "/" + name)
                        watch([folder + "/" + name], again: true)
                    }
                }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
        guard !changed.isEmpty else { return }
        timer.arm(after: Self.quietSeconds) { [unowned self] in
            let folders = changed.sorted()
            changed = []
            onChanges(folders)
        }
    }
}

/// The folders a watch follows, by descriptor. A folder moved keeps its descriptor: the scan
/// that finds it at its new path watches that path again, which gives the same descriptor and
/// replaces the old path.
///
/// The paths are slices of one array of bytes, each descriptor's a range of it: half the memory
/// of a dictionary of substrings (the set a scan asks for is made then, and let go).
private struct WatchedFolders {
    private struct Slice {
        var start: UInt32
        var end: UInt32
        /// Moved away: events still name the old path, but it is no longer watched as such.
        var isMoved = false
    }

    /// The paths' UTF-8, one after another; a path no longer watched stays until `compact`.
    private var text: [UInt8] = []
    private var slices: [Int32: Slice] = [:]
    /// The bytes of `text` that are paths of descriptors.
    private var used = 0

    /// The folder `descriptor` watches.
    func path(of descriptor: Int32) -> String? {
        slices[descriptor].map { String(decoding: text[Int($0.start)..<Int($0.end)], as: UTF8.self) }
    }

    /// The paths watched as they are (not those moved away).
    var paths: Set<String> {
        var paths = Set<String>(minimumCapacity: slices.count)
        for slice in slices.values where !slice.isMoved {
            paths.insert(String(decoding: text[Int(slice.start)..<Int(slice.end)], as: UTF8.self))
        }
        return paths
    }

    mutating func set(_ descriptor: Int32, _ path: String) {
        remove(descriptor)
        let start = UInt32(text.count)
        text.append(contentsOf: path.utf8)
        slices[descriptor] = Slice(start: start, end: UInt32(text.count))
        used += path.utf8.count
    }

    mutating func remove(_ descriptor: Int32) {
        guard let old = slices.removeValue(forKey: descriptor) else { return }
        used -= Int(old.end - old.start)
    }

    /// The folder of `descriptor` was moved: its path no longer says where it is.
    mutating func moved(_ descriptor: Int32) { slices[descriptor]?.isMoved = true }

    /// Makes `text` anew with only the paths watched, in an array of their size, when it holds
    /// much else (paths let go, or room to grow that a scan left).
    mutating func compact() {
        guard text.capacity > used + used / 4 + 4_096 else { return }
        var compacted = [UInt8]()
        compacted.reserveCapacity(used)
        for (descriptor, slice) in slices {
            let start = UInt32(compacted.count)
            compacted.append(contentsOf: text[Int(slice.start)..<Int(slice.end)])
            slices[descriptor] = Slice(start: start, end: UInt32(compacted.count), isMoved: slice.isMoved)
        }
        text = compacted
    }
}
