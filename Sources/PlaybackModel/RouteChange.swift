/// Why the audio route changed (`AVAudioSession.RouteChangeReason`'s two that a player acts on).
public enum RouteChangeReason: String, CaseIterable, Sendable, Equatable {
    /// The device playback went to is gone: headphones unplugged, a Bluetooth headset out of
    /// range, the sound server's sink removed, the ALSA device vanished.
    case oldDeviceUnavailable
    /// A device appeared: headphones plugged in, a sink added.
    case newDeviceAvailable
}

/// The latest route change: what happened, to which device, and when. Pushed with the
/// `route` change bit; the player pauses on `oldDeviceUnavailable` (`on-route-lost`) and may
/// resume on `newDeviceAvailable` (`on-route-back`).
public struct RouteChange: Sendable, Equatable {
    public var reason: RouteChangeReason
    /// The device as the system names it to people (a sink's description, a jack's name).
    public var device: String
    /// Seconds since the Unix epoch.
    public var timestamp: Double

    public init(reason: RouteChangeReason, device: String, timestamp: Double) {
        self.reason = reason
        self.device = device
        self.timestamp = timestamp
    }
}
