import CSystemd
import PlaybackModel

/// Pings systemd's watchdog only on proof of health, never from a timer alone.
///
/// While playing it checks every half timeout that the output thread wrote to the device
/// recently (`isOutputHealthy`); the check itself runs on the event loop, so a hung event
/// loop stops the pings too. A stalled engine or loop is then restarted by systemd.
///
/// Paused or stopped there is nothing to prove but the loop, and pinging every few seconds
/// would be the only wake-up of an idle daemon. So it relaxes the timeout at run time
/// (`WATCHDOG_USEC=`, sd_notify(3)) to `idleTimeout` and pings every half of that; playing
/// restores the configured timeout.
final class HealthWatchdog {
    /// The timeout while paused or stopped, in seconds.
    static let idleTimeout = 3600.0
    /// The output thread writes every period (250 ms); older than this while playing is a stall.
    static let maximumOutputSilence = 2.0

    /// `WatchdogSec=` as systemd passed it (`WATCHDOG_USEC`), in seconds; nil when off.
    let configuredTimeout: Double?
    private let notifier: SystemdNotifier
    private let timer: OneShotTimer
    private let isOutputHealthy: () -> Bool
    private let onStall: () -> Void
    private var isPlaying = false
    private var isRelaxed = false
    private var hasReportedStall = false

    init(
        loop: EventLoop, notifier: SystemdNotifier, isOutputHealthy: @escaping () -> Bool,
        onStall: @escaping () -> Void
    ) {
        var microseconds: UInt64 = 0
        configuredTimeout = sd_watchdog_enabled(0, &microseconds) > 0 ? Double(microseconds) / 1e6 : nil
        self.notifier = notifier
        self.isOutputHealthy = isOutputHealthy
        self.onStall = onStall
        timer = OneShotTimer(loop: loop, accuracy: 0.05)
    }

    /// Starts pinging (after `READY=1`).
    func start(isPlaying: Bool) {
        update(isPlaying: isPlaying)  // the timer is not armed yet, so this always takes effect
    }

    /// Called on every published change: switches between the playing and idle regimes.
    func update(isPlaying: Bool) {
        guard let configuredTimeout, isPlaying != self.isPlaying || !timer.isArmed else { return }
        self.isPlaying = isPlaying
        if isPlaying && isRelaxed {
            notifier.watchdogTimeout(microseconds: UInt64(configuredTimeout * 1e6))
            isRelaxed = false
        } else if !isPlaying && !isRelaxed && Self.idleTimeout > configuredTimeout {
            notifier.watchdogTimeout(microseconds: UInt64(Self.idleTimeout * 1e6))
            isRelaxed = true
        } else {
            notifier.watchdogPing()
        }
        hasReportedStall = false
        arm()
    }

    private func arm() {
        guard let configuredTimeout else { return }
        let timeout = isRelaxed ? Self.idleTimeout : configuredTimeout
        timer.arm(after: timeout / 2) { [unowned self] in tick() }
    }

    private func tick() {
        if !isPlaying || isOutputHealthy() {
            notifier.watchdogPing()
            hasReportedStall = false
        } else if !hasReportedStall {
            hasReportedStall = true
            onStall()
        }
        arm()
    }
}

extension HealthWatchdog: Subsystem {
    func ready(_ view: PlayerView) { start(isPlaying: view.nowPlaying.state == .playing) }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        update(isPlaying: view.nowPlaying.state == .playing)
    }
}
