#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a session bus to appear without spinning. When the bus's socket path is known it
/// sleeps on inotify on the socket's directory (no wake-up until something is created there)
/// and tries when the socket exists, a few times with a growing delay (the socket exists a
/// moment before the bus listens on it). For an address it cannot watch it tries with a delay
/// that doubles up to a minute. Event loop only.
final class SessionBusWatch {
    /// Delays between tries after the socket appeared, or for an unwatchable address.
    static let firstDelay = 0.1
    static let longestDelay = 60.0
    /// Tries after the socket appeared before sleeping on inotify again.
    static let triesPerAppearance = 8

    private let loop: EventLoop
    private let socketPath: String?
    private let timer: OneShotTimer
    private var inotify: Int32 = -1
    private var delay = firstDelay
    private var triesLeft = 0
    private var attempt: (() -> Bool)?

    init(loop: EventLoop, socketPath: String?) {
        self.loop = loop
        self.socketPath = socketPath
        timer = OneShotTimer(loop: loop, accuracy: 0.05)
    }

    deinit { cancel() }

    /// Calls `attempt` until it returns true (it joined the bus) or `cancel()`.
    func wait(_ attempt: @escaping () -> Bool) {
        cancel()
        self.attempt = attempt
        delay = Self.firstDelay
        if let socketPath, watchDirectory(of: socketPath) {
            if socketExists { retrySoon() }
        } else {
            triesLeft = .max
            timer.arm(after: delay) { [unowned self] in tryNow() }
        }
    }

    func cancel() {
        attempt = nil
        timer.cancel()
        if inotify >= 0 {
            loop.unwatch(inotify)
            close(inotify)
            inotify = -1
        }
    }

    private var socketExists: Bool {
        var info = stat()
        return socketPath.map { stat($0, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK } ?? false
    }

    private func watchDirectory(of path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return false }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return false }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) >= 0 else {
            close(fd)
            return false
        }
        inotify = fd
        loop.watch(fd) { [unowned self] _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(inotify, &buffer, buffer.count) > 0 {}
            if socketExists && !timer.isArmed {
                delay = Self.firstDelay
                retrySoon()
            }
        }
        return true
    }

    private func retrySoon() {
        triesLeft = Self.triesPerAppearance
        timer.arm(after: delay) { [unowned self] in tryNow() }
    }

    private func tryNow() {
        guard let attempt else { return }
        if attempt() { return cancel() }
        triesLeft -= 1
        guard triesLeft > 0 else { return }  // back to sleep on inotify
        timer.arm(after: delay) { [unowned self] in tryNow() }
        delay = min(delay * 2, Self.longestDelay)
    }
}
