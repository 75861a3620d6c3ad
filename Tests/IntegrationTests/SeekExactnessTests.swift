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
