import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Acceptance 2: a seek while paused, then play, yields exactly the reference samples
    /// from that position; the reply and nowPlaying report the landed position.
    @Suite struct SeekExactness {
        static let bytesPerFrame = 4

        @Test("changePlaybackPosition while paused, then play, is sample-exact", arguments: [0.0, 0.5, 12.345, 29.99])
        func seekThenPlayIsExact(position: Double) throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"])
            let reply = try daemon.call("changePlaybackPosition", [("position", .number(position))])
            let frame = Int((position * 44_100).rounded())
            #expect(reply["status"]?.stringValue == "success")
            #expect(reply["position"]?.numberValue == Double(frame) / 44_100)
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == (Double(frame) / 44_100 * 1e6).rounded() / 1e6)
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped")
            let reference = try TestEnvironment.reference("long")
            let expected = reference.subdata(in: frame * Self.bytesPerFrame..<reference.count)
            let difference = pcmDifference(try daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test(
            "pause and play on a device held open that can pause: it keeps its buffer, nothing written twice or skipped"
        )
        func pauseOnHeldDeviceIsExact() throws {
            // ALSA's file plugin before the PulseAudio null sink: not a server's stream itself,
            // so held at a pause, paced, with a delay, and able to pause where it plays.
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            _ = try daemon.enqueue(["long.mp3"], play: true)
            func elapsed() throws -> Double { try #require(try daemon.nowPlaying()["elapsed"]?.numberValue) }
            func waitUntilElapsed(_ seconds: Double) throws {
                let deadline = Date().addingTimeInterval(20)
                while try elapsed() < seconds {
                    guard Date() < deadline else { throw TestFailure("the position did not reach \(seconds) s") }
                    usleep(50_000)
                }
            }
            try waitUntilElapsed(1.5)
            #expect(try daemon.call("pause")["status"]?.stringValue == "success")
            let paused = try daemon.waitForState("paused")
            let heard = try #require(paused["elapsed"]?.numberValue)
            usleep(300_000)
            #expect(try elapsed() == heard, "the position holds while paused")
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try waitUntilElapsed(heard + 1.5)
            _ = try daemon.call("stop")
            _ = try daemon.waitForState("stopped")
            // The capture is every sample written: the device played on from what it held, so
            // it is the reference from the start, without a repeat or a gap.
            let (captured, reference) = (try daemon.captured(), try TestEnvironment.reference("long"))
            #expect(captured.count > Int((heard + 1.5) * 44_100) * Self.bytesPerFrame)
            let difference = pcmDifference(captured, reference.prefix(captured.count))
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("A seek past the end clamps to the item's end")
        func seekPastEndClamps() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3"])
            let reply = try daemon.call("changePlaybackPosition", [("position", .number(999))])
            let duration = try #require(try daemon.nowPlaying()["duration"]?.numberValue)
            #expect(reply["position"]?.numberValue == duration)
        }
    }
}
