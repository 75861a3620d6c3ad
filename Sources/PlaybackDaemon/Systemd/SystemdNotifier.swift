import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd about the daemon's lifecycle (the `sd_notify` protocol): `READY=1`, `STATUS=`,
/// `RELOADING=1`, `STOPPING=1`, and the watchdog's `WATCHDOG=1` and `WATCHDOG_USEC=`. Does
/// nothing when `NOTIFY_SOCKET` is unset. Event loop only.
///
/// It sends itself rather than through libsystemd's `sd_notify`, whose send blocks for as long
/// as the receiver's queue is full: a manager (or a test) that stops reading froze the event
/// loop (seen: 20 SIGHUPs, 40 messages, a queue of 10). Here a send waits at most
/// `sendTimeout` for room, and a message that still does not fit is dropped.
final class SystemdNotifier {
    /// Longest one message may wait for room in the receiver's queue, in seconds.
    static let sendTimeout = 0.1
    private let socket: NotifySocket?

    init(environment: Environment = .process) {
        socket = environment["NOTIFY_SOCKET"].flatMap { NotifySocket(address: $0, timeout: Self.sendTimeout) }
    }

    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    func status(_ status: String) { send("STATUS=\(status)") }
    func stopping() { send("STOPPING=1\nSTATUS=Stopping") }

    /// Before re-reading the configuration; `ready(status:)` ends the reload.
    func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)\nSTATUS=Reloading configuration")
    }

    func watchdogPing() { send("WATCHDOG=1") }

    /// Changes the watchdog timeout at run time (and counts as a ping).
    func watchdogTimeout(microseconds: UInt64) { send("WATCHDOG_USEC=\(microseconds)\nWATCHDOG=1") }

    private func send(_ message: String) {
        socket?.send(message)
    }

    /// The one-line summary `systemctl --user status` shows.
    static func summary(_ nowPlaying: NowPlaying) -> String {
        guard let item = nowPlaying.item else { return "Stopped" }
        let track = [item.metadata.artist, item.metadata.title].compactMap { $0 }.joined(separator: " - ")
        switch nowPlaying.state {
        case .playing: return "Playing: \(track)"
        case .paused: return "Paused: \(track)"
        case .stopped: return "Stopped: \(track)"
        case .interrupted: return "Interrupted (device unavailable): \(track)"
        }
    }
}
