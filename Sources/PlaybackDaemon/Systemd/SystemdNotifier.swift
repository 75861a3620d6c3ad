import CSystemd
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd about the daemon's lifecycle through `sd_notify`: `READY=1`, `STATUS=`,
/// `RELOADING=1`, `STOPPING=1`, and the watchdog's `WATCHDOG=1` and `WATCHDOG_USEC=`. Does
/// nothing when `NOTIFY_SOCKET` is unset.
struct SystemdNotifier {
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
        _ = sd_notify(0, message)
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
