import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Acceptance 1: what reaches the device is exactly `mpg123 --gapless -s` of the queue.
    @Suite struct BitExactPlayback {
        @Test("A three-track queue is captured byte for byte, gapless, through the end")
        func threeTrackQueueIsBitExact() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            #expect(reply["status"]?.stringValue == "success")
            try events.waitForState("stopped")
            let expected = try ["one", "two", "three"].map(TestEnvironment.reference).reduce(Data(), +)
            let difference = pcmDifference(try daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("A format change reopens the device; each format's stream is still exact")
        func formatChangeReopensDeviceExactly() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_per_format")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "mono48.mp3", "two.mp3"], play: true)
            try events.waitForState("stopped")
            let first = try daemon.captured(suffix: "_44100_2.raw")
            let continued = try daemon.captured(suffix: "_44100_2.raw.0001")
            #expect(pcmDifference(first, try TestEnvironment.reference("one")) == nil)
            #expect(
                pcmDifference(try daemon.captured(suffix: "_48000_1.raw"), try TestEnvironment.reference("mono48"))
                    == nil)
            #expect(pcmDifference(continued, try TestEnvironment.reference("two")) == nil)
        }

        @Test("Items enqueued while the last one plays are played after it")
        func enqueueWhilePlayingExtendsTheStream() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3"], play: false)
            _ = try daemon.enqueue(["two.mp3"], play: false)
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped")
            let expected = try TestEnvironment.reference("one") + TestEnvironment.reference("two")
            #expect(pcmDifference(try daemon.captured(), expected) == nil)
        }
    }
}
