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
    /// Each watch descriptor's folder.
    private let folders = Locked([Int32: String]())
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

    /// Watches `paths` (folders); returns how many could not be watched (the user's inotify
    /// limit reached). Any thread.
    @discardableResult
    func watch(_ paths: [String]) -> Int {
        var failed = 0
        for path in paths {
            let descriptor = inotify_add_watch(fd, path, Self.mask)
            if descriptor < 0 {
                failed += 1
                continue
            }
            folders.withLock { $0[descriptor] = path }
        }
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
                if let folder = known[descriptor] {
                    changed.insert(folder)
                    if mask & UInt32(IN_IGNORED) != 0 { _ = folders.withLock { $0.removeValue(forKey: descriptor) } }
                    // A folder made or moved in: watched at once, so that the files copied into
                    // it keep the scan waiting until the copy is done; scanned with its files.
                    if mask & UInt32(IN_ISDIR) != 0, length > 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        let name = buffer.withUnsafeBytes { raw in
                            let start = raw.baseAddress!.advanced(by: offset + MemoryLayout<inotify_event>.size)
                            return String(cString: start.assumingMemoryBound(to: CChar.self))
                        }
                        changed.insert(folder + "/" + name)
                        watch([folder + "/" + name])
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
