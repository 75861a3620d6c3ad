import CShim

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's single control thread: a `poll` loop over descriptors with handlers, plus
/// one-shot timers on timerfds. It sleeps in `poll` with no timeout, so an idle daemon has
/// no wake-ups at all. Everything that touches the now-playing state runs here.
final class ControlLoop {
    struct Interest {
        var fd: Int32
        var events: Int16
        var handler: (Int16) -> Void
        /// Which registration this is: a descriptor closed and reused within one iteration
        /// gets a new one, so the old descriptor's readiness never reaches the new handler.
        var registration: UInt64
    }

    private var interests: [Int32: Interest] = [:]
    private var running = true
    private var registrations: UInt64 = 0

    /// Calls `handler` with the returned events whenever `fd` is ready for `events`.
    func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), handler: @escaping (Int16) -> Void) {
        registrations += 1
        interests[fd] = Interest(fd: fd, events: events, handler: handler, registration: registrations)
    }

    /// Changes which events `fd` is watched for.
    func setEvents(_ fd: Int32, _ events: Int16) {
        interests[fd]?.events = events
    }

    func unwatch(_ fd: Int32) {
        interests[fd] = nil
    }

    func stop() { running = false }

    /// Runs until `stop()`.
    func run() {
        while running {
            let polled = Array(interests.values)
            var fds = polled.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("poll failed: \(String(cString: strerror(errno)))")
            }
            for (index, pfd) in fds.enumerated() where pfd.revents != 0 {
                // A handler earlier in this iteration may have closed this descriptor, and the
                // number may already belong to a new registration: only the one polled gets it.
                guard running, let interest = interests[pfd.fd],
                    interest.registration == polled[index].registration
                else { continue }
                interest.handler(pfd.revents)
            }
        }
    }
}

/// A one-shot timer on a timerfd, dispatched by the control loop.
final class OneShotTimer {
    private let fd: Int32
    private var action: (() -> Void)?

    init(loop: ControlLoop) {
        fd = playbackd_timerfd()
        precondition(fd >= 0, "timerfd_create failed")
        loop.watch(fd) { [unowned self] _ in self.fire() }
    }

    deinit { close(fd) }

    /// Runs `action` once after `seconds`, replacing any earlier arming.
    func arm(after seconds: Double, _ action: @escaping () -> Void) {
        self.action = action
        playbackd_timerfd_arm(fd, max(seconds, 0.000_001))
    }

    func cancel() {
        action = nil
        playbackd_timerfd_arm(fd, 0)
    }

    var isArmed: Bool { action != nil }

    private func fire() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
        let action = self.action
        self.action = nil
        action?()
    }
}
