import PlaybackEngine
import PlaybackModel
import Testing

/// A sound card's jack controls as `ALSAJackMonitor` reads them: which are outputs, and what a
/// new value means.
@Suite struct JackStatesTests {
    @Test("output jacks are headphones, line outs, speakers and the played PCM's HDMI; not mics, line ins, phantoms")
    func outputJacks() {
        for name in ["Headphone Jack", "Front Headphone Jack", "Line Out Jack", "Speaker Jack", "HDMI/DP,pcm=3 Jack"] {
            #expect(JackStates.isOutputJack(name, pcmDevice: 3), "\(name)")
        }
        for name in [
            "Mic Jack", "Front Mic Jack", "Headset Mic Jack", "Line Jack", "Rear Line Jack", "Speaker Phantom Jack",
            "HDMI/DP,pcm=7 Jack", "Headphone Playback Switch", "Line In Jack",
        ] {
            #expect(!JackStates.isOutputJack(name, pcmDevice: 3), "\(name)")
        }
        #expect(JackStates.isOutputJack("HDMI/DP,pcm=7 Jack", pcmDevice: 7))
    }

    @Test("unplugged is a lost device, plugged a new one; the first value and repeats are no change")
    func transitions() {
        var jacks = JackStates(pcmDevice: 0)
        #expect(jacks.update("Headphone Jack", plugged: true, at: 0) == nil, "the first value is the state")
        #expect(
            jacks.update("Headphone Jack", plugged: false, at: 1)
                == RouteChange(reason: .oldDeviceUnavailable, device: "Headphone", timestamp: 1))
        #expect(jacks.update("Headphone Jack", plugged: false, at: 2) == nil)
        #expect(
            jacks.update("Headphone Jack", plugged: true, at: 3)
                == RouteChange(reason: .newDeviceAvailable, device: "Headphone", timestamp: 3))
        #expect(jacks.update("Mic Jack", plugged: true, at: 4) == nil)
        #expect(jacks.update("Mic Jack", plugged: false, at: 5) == nil, "a microphone is not a route")
        #expect(jacks.plugged == ["Headphone Jack": true])
    }
}
