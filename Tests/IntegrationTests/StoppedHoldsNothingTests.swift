import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// A stopped daemon, and one paused past its hold time, holds no audio file and no device
    /// open: the disk the music came from can be unmounted. Read from `/proc/PID/fd`.
    @Suite struct StoppedHoldsNothing {
        @Test("after stop, neither the item's file nor the next one's nor the device stays open")
        func afterStop() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "two.mp3"], play: true)
            try events.waitForState("playing")
            #expect(try daemon.openFiles().contains { $0.hasSuffix("/long.mp3") }, "playing holds the file")
            #expect(try daemon.openFiles().contains(daemon.capturePath), "and the device")
            #expect(try daemon.call("stop")["status"]?.stringValue == "success")
            // The device closes on a thread of its own, just after the reply.
            try waitUntil(state: { "\((try? daemon.openAudio()) ?? [])" }) { try daemon.openAudio() == [] }
            #expect(try daemon.nowPlaying()["queueCount"] == .number(2), "the queue is kept")
        }

        @Test("at the end of the queue nothing stays open")
        func atTheEndOfTheQueue() throws {
            let daemon = try DaemonProcess()
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "three.mp3"], play: true)
            try events.waitForState("stopped")
            try waitUntil(state: { "\((try? daemon.openAudio()) ?? [])" }) { try daemon.openAudio() == [] }
        }

        @Test(
            "paused on a device that is not a sound server's: held for the hold time, then both released; play resumes")
        func afterTheHoldTime() throws {
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", arguments: ["--pause-hold", "3"], pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try events.waitForState("playing")
            let seek = try daemon.call("changePlaybackPosition", [("position", .number(12))])
            #expect(seek["status"]?.stringValue == "success")
            #expect(try daemon.call("pause")["status"]?.stringValue == "success")
            // Well within the 3 s hold: both are still held, so play would not reopen anything.
            let open = try daemon.openFiles()
            #expect(open.contains { $0.hasSuffix("/long.mp3") } && open.contains(daemon.capturePath), "\(open)")
            try waitUntil(timeout: 30) { try daemon.openAudio() == [] }
            let paused = try daemon.nowPlaying()
            #expect(abs((paused.number("elapsed") ?? 0) - 12) < 0.5, "the position is kept")
            let held = paused.number("elapsed") ?? -1
            let asked = Date()
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            let resumed = try events.waitForState("playing")["nowPlaying"]?.number("elapsed") ?? -1
            // Announced once the device plays: at most the time since `play` past the held position.
            let since = Date().timeIntervalSince(asked)
            #expect(resumed >= held - 0.05 && resumed <= held + since + 0.05, "resumed at \(resumed), held \(held)")
            #expect(try daemon.openFiles().contains { $0.hasSuffix("/long.mp3") }, "play opened the file again")
        }
    }
}
