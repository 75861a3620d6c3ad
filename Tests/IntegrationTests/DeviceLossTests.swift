import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// A device that disappears while playing is a status, never a crash: the state becomes
    /// `interrupted`, the queue and the position are kept, and `play` resumes once it is back.
    @Suite struct DeviceLoss {
        @Test(
            "the sound server dies mid-play: interrupted, position kept, play resumes after it returns (ALSA's pulse plugin, and libpulse)",
            arguments: ["pulse", "pulseaudio"])
        func deviceDisappearsWhilePlaying(device: String) throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: device, soundServer: server)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true)
            try events.waitForEvent { $0["nowPlaying"]?["rate"]?.numberValue == 1 }
            try daemon.waitForElapsed(atLeast: 1)
            server.kill()
            let interrupted = try #require(try events.waitForState("interrupted", timeout: 10)["nowPlaying"])
            let kept = try #require(interrupted["elapsed"]?.numberValue)
            #expect(kept > 0.5 && kept < 5, "position kept: \(kept)")
            #expect(interrupted["queueCount"]?.numberValue == 2)
            #expect(interrupted["title"]?.stringValue == "Long")
            #expect(daemon.isRunning)

            #expect(
                try daemon.call("play")["status"]?.stringValue == "success", "the reply does not wait for the device")
            let failed = try #require(try events.waitForState("interrupted", timeout: 10)["nowPlaying"])
            #expect(failed["deviceError"]?.stringValue?.contains("cannot open audio device") == true)
            #expect(failed["elapsed"]?.numberValue == kept, "a failed retry keeps the position")

            try server.start()
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            let resumed = try daemon.nowPlaying()
            #expect(resumed["state"]?.stringValue == "playing")
            #expect(abs((resumed["elapsed"]?.numberValue ?? -1) - kept) < 0.1)
            try events.waitForEvent {
                $0["nowPlaying"]?["state"]?.stringValue == "playing" && $0["nowPlaying"]?["rate"]?.numberValue == 1
            }
        }

        @Test(
            "the sound server dies and comes back five times in a row: each time interrupted, then on from where it was"
        )
        func deviceDiesFiveTimes() throws {
            let server = try PulseServer()
            let daemon = try DaemonProcess(device: "pulse", soundServer: server)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true)
            try events.waitForEvent { $0["nowPlaying"]?["rate"]?.numberValue == 1 }
            var previous = 0.0
            for round in 1...5 {
                try daemon.waitForElapsed(atLeast: previous + 0.7)
                server.kill()
                let interrupted = try #require(try events.waitForState("interrupted", timeout: 10)["nowPlaying"])
                let kept = try #require(interrupted["elapsed"]?.numberValue)
                #expect(kept > previous, "round \(round): the position moved on from \(previous) to \(kept)")
                #expect(interrupted["title"]?.stringValue == "Long" && interrupted["queueCount"]?.numberValue == 2)
                try server.start()
                #expect(try daemon.call("play")["status"]?.stringValue == "success", "round \(round)")
                let resumed = try daemon.nowPlaying()
                #expect(abs((resumed["elapsed"]?.numberValue ?? -1) - kept) < 0.1, "round \(round): on from \(kept)")
                try events.waitForEvent { $0["nowPlaying"]?["rate"]?.numberValue == 1 }
                previous = kept
            }
            #expect(daemon.isRunning && previous > 2, "five losses survived, at \(previous) s")
        }
    }
}
