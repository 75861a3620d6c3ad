/// Tries a device that went away again, with a growing delay: a network stream (Snapcast)
/// whose server is restarted or not there yet comes back by itself. Between tries nothing
/// wakes but this timer. Event loop only.
final class DeviceRetry {
    /// The first delay and the ceiling; each failed try doubles the delay.
    static let firstDelay = 0.5
    static let longestDelay = 16.0

    private let timer: OneShotTimer
    private(set) var delay = DeviceRetry.firstDelay
    /// Tries made since the device was lost.
    private(set) var attempts = 0

    init(loop: EventLoop) { timer = OneShotTimer(loop: loop) }

    var isArmed: Bool { attempts > 0 || timer.isArmed }

    /// Runs `attempt` after the current delay; the next arm waits twice as long.
    func arm(_ attempt: @escaping () -> Void) {
        timer.arm(after: delay) { [unowned self] in
            attempts += 1
            attempt()
        }
        delay = min(Self.longestDelay, delay * 2)
    }

    /// Stops trying and starts the next loss from the first delay.
    func reset() {
        timer.cancel()
        delay = Self.firstDelay
        attempts = 0
    }
}
