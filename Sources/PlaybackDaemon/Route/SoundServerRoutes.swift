import PlaybackModel

/// What playbackd knows of a sound server's sinks and of the sink its own stream plays on, and
/// the route changes each update makes: the sink played on removed, or its active port switched
/// away from one that became unavailable (headphones unplugged: the server moves to the
/// speakers), is `oldDeviceUnavailable`; a sink added, or a port that became available, is
/// `newDeviceAvailable`. Pure: `SoundServerWatch` feeds it what the server reports, in the
/// order the server sent it.
struct SoundServerRoutes: Equatable {
    /// A port's availability, as the server reports it (`pa_port_available`).
    enum PortAvailability: Equatable {
        case unknown, no, yes
    }

    /// One sink port.
    struct Port: Equatable {
        var name: String
        var description: String
        var availability: PortAvailability
    }

    /// One sink, with the ports whose availability and activity decide a route.
    struct Sink: Equatable {
        var index: UInt32
        var description: String
        var activePort: String?
        var ports: [Port]

        func port(_ name: String?) -> Port? { ports.first { $0.name == name } }
    }

    private(set) var sinks: [UInt32: Sink] = [:]
    /// The sink the daemon's stream plays on, or last played on while no stream is open.
    private(set) var streamSink: UInt32?
    /// Whether the first listing of the sinks is complete: what it finds are no changes.
    private(set) var isListed = false

    /// The first listing's sinks.
    mutating func listed(_ sinks: [Sink]) {
        for sink in sinks { self.sinks[sink.index] = sink }
        isListed = true
    }

    /// A sink added or changed.
    mutating func update(_ sink: Sink, at time: Double) -> RouteChange? {
        let old = sinks.updateValue(sink, forKey: sink.index)
        guard isListed else { return nil }
        guard let old else {
            return RouteChange(reason: .newDeviceAvailable, device: sink.description, timestamp: time)
        }
        if sink.index == streamSink, old.activePort != sink.activePort, let lost = sink.port(old.activePort),
            lost.availability == .no
        {
            return RouteChange(
                reason: .oldDeviceUnavailable, device: "\(sink.description): \(lost.description)", timestamp: time)
        }
        for port in sink.ports where port.availability == .yes && old.port(port.name)?.availability != .yes {
            return RouteChange(
                reason: .newDeviceAvailable, device: "\(sink.description): \(port.description)", timestamp: time)
        }
        return nil
    }

    /// A sink removed: the route lost when the stream played, or last played, on it.
    mutating func remove(sink index: UInt32, at time: Double) -> RouteChange? {
        let removed = sinks.removeValue(forKey: index)
        guard index == streamSink else { return nil }
        streamSink = nil
        return RouteChange(
            reason: .oldDeviceUnavailable, device: removed?.description ?? "sink \(index)", timestamp: time)
    }

    /// The daemon's stream plays on `sink` (it opened there, or the server moved it).
    mutating func streamPlays(on sink: UInt32) { streamSink = sink }
}
