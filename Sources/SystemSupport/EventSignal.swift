import CSystemShim

#if canImport(Glibc)
    import Glibc
#endif

/// A wake-up edge between threads, built on an `eventfd`: `signal()` never blocks or
/// allocates (safe from the real-time thread), `wait()` sleeps in `poll` with no timeout,
/// and the descriptor can join a `poll` set (the event loop's, or with ALSA's).
public final class EventSignal: @unchecked Sendable {
    /// The eventfd; readable while signalled.
    public let fileDescriptor: Int32

    public init() {
        fileDescriptor = playbackd_eventfd()
        precondition(fileDescriptor >= 0, "eventfd failed")
    }

    deinit { close(fileDescriptor) }

    /// Makes the descriptor readable (idempotent until `reset`).
    public func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(fileDescriptor, &one, 8)
    }

    /// Clears a pending signal without blocking.
    public func reset() {
        var value: UInt64 = 0
        _ = Glibc.read(fileDescriptor, &value, 8)
    }

    /// Sleeps until signalled (then clears the signal) or, with a timeout, until it passes.
    public func wait(timeoutMilliseconds: Int32 = -1) {
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, timeoutMilliseconds) < 0 && errno == EINTR {}
        if pfd.revents != 0 { reset() }
    }
}
