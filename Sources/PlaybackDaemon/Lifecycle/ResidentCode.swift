import CSystemShim
import PlaybackModel

/// Keeps the daemon's resident set to the code it runs while it plays. Starting (the dynamic
/// linker's symbol lookups, libraries' constructors, the state restored), opening a device
/// (ALSA's configuration, a sound server's handshake) and announcing a start (the pushes, the
/// state saved, MPRIS) run code that playing does not run again, and the kernel maps up to 16
/// pages around each page of a file touched: all of it stayed mapped.
///
/// Once the daemon is ready, when a library scan ends (the walk, the tag readers, SQLite's
/// writes), and `settleSeconds` after the device started playing (unless playback stopped or
/// paused before: nothing wakes a paused daemon for this), the
/// read-only pages of every loaded file (the executable and the libraries: code, constants,
/// symbol tables) are unmapped from this process (`playbackd_release_clean_file_pages`). What
/// runs afterwards maps its pages again from the page cache, a minor fault each: nothing is
/// read from the disk again unless the kernel had reclaimed the page, and no writable page is
/// touched.
final class ResidentCode: Subsystem {
    /// How long after the device starts playing the pages go: what a start runs once has run
    /// by then.
    static let settleSeconds = 5.0
    private let log: DaemonLog
    private let settled: OneShotTimer
    /// Whether the library was scanning at the last publish.
    private var scanning = false

    init(loop: EventLoop, log: DaemonLog) {
        self.log = log
        settled = OneShotTimer(loop: loop, accuracy: 1)
    }

    func ready(_ view: PlayerView) { release(after: "start-up") }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        if events.contains(.deviceStarted) {
            settled.arm(after: Self.settleSeconds) { [unowned self] in release(after: "the device started") }
        }
        if view.nowPlaying.state != .playing { settled.cancel() }
        let isScanning = view.library?.state == .scanning
        if scanning && !isScanning { release(after: "a library scan") }
        scanning = isScanning
    }

    func stop(_ last: PlayerView) { settled.cancel() }

    private func release(after phase: String) {
        let bytes = playbackd_release_clean_file_pages()
        log.log(.debug, "unmapped \(bytes >> 10) KiB of read-only file pages after \(phase)")
    }
}
