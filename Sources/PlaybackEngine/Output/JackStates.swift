import PlaybackModel
import SystemSupport

/// What a sound card's jack controls say, and the route changes that follow from a control's
/// new value: an output jack unplugged is `oldDeviceUnavailable`, plugged in
/// `newDeviceAvailable`. Pure: `ALSAJackMonitor` feeds it what the card reports.
public struct JackStates: Sendable, Equatable {
    /// The PCM device played on: an HDMI or DisplayPort jack belongs to one PCM (`pcm=3`).
    public let pcmDevice: Int
    /// Whether each output jack seen is plugged in, by control name.
    public private(set) var plugged: [String: Bool] = [:]

    public init(pcmDevice: Int) { self.pcmDevice = pcmDevice }

    /// Whether `name` is a jack control of an output the PCM plays to: `Headphone Jack`,
    /// `Front Headphone Jack`, `Line Out Jack`, `Speaker Jack`, `HDMI/DP,pcm=3 Jack` (its `pcm`
    /// matching), not a microphone's or line input's, and not a phantom jack (always present).
    public static func isOutputJack(_ name: String, pcmDevice: Int) -> Bool {
        guard name.hasSuffix(bytes: " Jack") else { return false }
        let base = String(name.dropLast(" Jack".count))
        for word in ["Mic", "Phantom", "Line In"] where base.contains(bytes: word) { return false }
        // HDA names a line input's jack `Line` (with a place: `Rear Line`), an output's `Line Out`.
        if base == "Line" || base.hasSuffix(bytes: " Line") { return false }
        if let range = base.range(ofBytes: "pcm=") {
            return Int(base[range.upperBound...].prefix { $0.isNumber }) == pcmDevice
        }
        return true
    }

    /// Records `name`'s value; the route change it makes, if any. The first value seen of a
    /// jack is its state, not a change.
    public mutating func update(_ name: String, plugged isPlugged: Bool, at time: Double) -> RouteChange? {
        guard Self.isOutputJack(name, pcmDevice: pcmDevice) else { return nil }
        let was = plugged.updateValue(isPlugged, forKey: name)
        guard let was, was != isPlugged else { return nil }
        return RouteChange(
            reason: isPlugged ? .newDeviceAvailable : .oldDeviceUnavailable,
            device: String(name.dropLast(" Jack".count)), timestamp: time)
    }
}
