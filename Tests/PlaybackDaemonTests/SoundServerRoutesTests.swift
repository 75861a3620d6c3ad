import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The route changes that follow from what a sound server reports, in the order it reports them.
@Suite struct SoundServerRoutesTests {
    typealias Sink = SoundServerRoutes.Sink
    typealias Port = SoundServerRoutes.Port

    static let speakers = Port(name: "analog-output-speaker", description: "Speakers", availability: .unknown)
    static func headphones(_ availability: SoundServerRoutes.PortAvailability) -> Port {
        Port(name: "analog-output-headphones", description: "Headphones", availability: availability)
    }
    static func card(active: String, headphones availability: SoundServerRoutes.PortAvailability) -> Sink {
        Sink(index: 1, description: "Built-in Audio", activePort: active, ports: [speakers, headphones(availability)])
    }
    static let usb = Sink(index: 2, description: "USB DAC", activePort: nil, ports: [])

    @Test("the first listing is the state, not a change; later sinks are new devices")
    func listing() {
        var routes = SoundServerRoutes()
        #expect(routes.update(Self.usb, at: 1) == nil, "before the listing ends, nothing is new")
        routes.listed([Self.card(active: "analog-output-speaker", headphones: .no)])
        #expect(routes.sinks.count == 2)
        let added = Sink(index: 3, description: "Bluetooth Headset", activePort: nil, ports: [])
        #expect(
            routes.update(added, at: 2)
                == RouteChange(reason: .newDeviceAvailable, device: "Bluetooth Headset", timestamp: 2))
        #expect(routes.update(added, at: 3) == nil, "the same sink again is no change")
    }

    @Test("the sink the stream plays or last played on removed is a lost device, once; another sink's removal is none")
    func removal() {
        var routes = SoundServerRoutes()
        routes.listed([Self.usb, Self.card(active: "analog-output-speaker", headphones: .no)])
        routes.streamPlays(on: 2)
        #expect(routes.remove(sink: 1, at: 1) == nil)
        #expect(
            routes.remove(sink: 2, at: 2) == RouteChange(reason: .oldDeviceUnavailable, device: "USB DAC", timestamp: 2)
        )
        #expect(routes.streamSink == nil)
        #expect(routes.remove(sink: 2, at: 3) == nil)
    }

    @Test("headphones unplugged (the server switches the active port away from the port that became unavailable)")
    func headphonesUnplugged() {
        var routes = SoundServerRoutes()
        routes.listed([Self.card(active: "analog-output-headphones", headphones: .yes)])
        routes.streamPlays(on: 1)
        #expect(
            routes.update(Self.card(active: "analog-output-speaker", headphones: .no), at: 5)
                == RouteChange(reason: .oldDeviceUnavailable, device: "Built-in Audio: Headphones", timestamp: 5))
        #expect(
            routes.update(Self.card(active: "analog-output-headphones", headphones: .yes), at: 6)
                == RouteChange(reason: .newDeviceAvailable, device: "Built-in Audio: Headphones", timestamp: 6),
            "plugged in again")
    }

    @Test("a port chosen by hand (the old one still available) is no loss; a card the stream is not on loses nothing")
    func notLosses() {
        var routes = SoundServerRoutes()
        routes.listed([Self.card(active: "analog-output-headphones", headphones: .yes), Self.usb])
        routes.streamPlays(on: 1)
        #expect(routes.update(Self.card(active: "analog-output-speaker", headphones: .yes), at: 1) == nil)
        routes.streamPlays(on: 2)
        #expect(routes.update(Self.card(active: "analog-output-headphones", headphones: .yes), at: 2) == nil)
        #expect(routes.update(Self.card(active: "analog-output-speaker", headphones: .no), at: 3) == nil)
    }
}
