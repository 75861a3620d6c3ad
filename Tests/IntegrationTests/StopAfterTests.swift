import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// "Stop after this one" (`changeSingleMode` `once`) on a device paced in real time, its PCM
    /// captured: the item ends at its last frame, nothing of the next reaches the device, and
    /// the player is paused on the next item at its start, as MPD's single is.
    @Suite struct StopAfter {
        @Test(
            "single once: the capture is the first item exactly (flac -d's samples), then paused on the second, once off"
        )
        func stopsAtTheLastFrame() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["flac-two.flac", "flac-three.flac"])
            let set = try daemon.call("changeSingleMode", [("mode", .string("once"))])
            #expect(set["status"]?.stringValue == "success", "\(set.serialized)")
            _ = try daemon.call("play")
            let paused = try events.waitForState("paused", timeout: 30)["nowPlaying"]
            #expect(paused?["queueIndex"]?.numberValue == 1 && paused?["elapsed"]?.numberValue == 0)
            #expect(paused?["singleMode"]?.stringValue == "off", "once is spent")
            let first = try TestEnvironment.reference("flac-two")
            let captured = try daemon.captured()
            #expect(captured.count == first.count, "\(captured.count) bytes written, the item has \(first.count)")
            let exact = captured.prefix(first.count) == first
            #expect(exact, "the item as flac -d decodes it")
            // `play` goes on with the second item from its start.
            _ = try daemon.call("play")
            try events.waitForState("stopped", timeout: 30)
            let second = try TestEnvironment.reference("flac-three")
            // A pause lets a sound server's stream go (the file device over `pulse` is one), and
            // the device opened again at `play` starts its file anew: the second item whole.
            let whole = try daemon.captured()
            let secondExact = whole == second  // not in #expect: its diff of the bytes takes minutes
            #expect(secondExact, "\(whole.count) bytes written after play, the second item has \(second.count)")
        }
    }
}
