import CSystemd
import PlaybackModel

/// Tells systemd about the daemon's lifecycle (`READY=1`, `STATUS=`, `STOPPING=1`) through
/// `sd_notify`; does nothing when `NOTIFY_SOCKET` is unset.
struct SystemdNotifier {
    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    func status(_ status: String) { send("STATUS=\(status)") }
    func stopping() { send("STOPPING=1\nSTATUS=Stopping") }

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
