/// Tries again a device that went away and comes back by itself (a Snapcast stream whose
/// snapserver restarted, or is not there yet), as a value: after 0.5 s, then twice as long
/// each time up to 16 s. The state arms it when playback is interrupted on such a device and
/// resets it when the transport leaves `interrupted`; its `due` time is one of the state's
/// deadlines.
struct DeviceRetry: Equatable {
    /// The first delay and the ceiling; each failed try doubles the delay.
    static let firstDelay = 0.5
    static let longestDelay = 16.0

    /// When the next try is due (seconds since the epoch); nil when none is armed.
    private(set) var due: Double?
    private(set) var delay = DeviceRetry.firstDelay
    /// Tries made since the device was lost.
    private(set) var attempts = 0

    var isActive: Bool { due != nil || attempts > 0 }

    /// Arms the next try, `delay` from `now`; the one after waits twice as long.
    mutating func arm(now: Double) {
        due = now + delay
        delay = min(Self.longestDelay, delay * 2)
    }

    /// The try is made now: counted, and nothing armed until it failed.
    mutating func tryNow() {
        attempts += 1
        due = nil
    }

    /// Stops trying; the next loss starts from the first delay.
    mutating func reset() { self = DeviceRetry() }
}
