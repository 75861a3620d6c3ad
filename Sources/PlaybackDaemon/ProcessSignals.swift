import CSystemShim

#if canImport(Glibc)
    import Glibc
#endif

/// The process-wide signal set-up, done once at the top of `main` before anything else.
///
/// SIGTERM, SIGINT and SIGHUP are blocked before any thread exists, so every thread (the
/// daemon's own workers, the engine's decoder and output threads, and threads that libraries
/// start, such as libpulse's inside the ALSA pulse plugin) inherits the mask, and the kernel
/// can only hand these signals to the event loop's signalfd. A thread created with them
/// unblocked could take a SIGTERM whose default action ends the process without a clean stop.
public enum ProcessSignals {
    /// Blocks the daemon's signals and ignores SIGPIPE (writes to a vanished peer become
    /// errors; ours use MSG_NOSIGNAL, libraries' sockets may not). Main thread, first thing.
    public static func prepare() {
        precondition(playbackd_block_daemon_signals() == 0, "pthread_sigmask failed")
        signal(SIGPIPE, SIG_IGN)
    }
}
