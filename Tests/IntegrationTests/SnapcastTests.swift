import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The Snapcast output against Debian's snapserver and snapclient 0.26 on loopback
    /// (docs/multiroom.md). Serial: the stream is paced in real time.
    @Suite struct Snapcast {
        @Test(
            "a three-item queue reaches two snapclients whole, in order and without a gap (each 100 ms window at correlation >= 0.99 with the resampled reference)"
        )
        func twoRoomsHearTheQueue() throws {
            let rig = try SnapcastRig()
            let rooms = [try rig.addClient("kitchen"), try rig.addClient("study")]
            let daemon = try DaemonProcess(arguments: ["--snapcast", rig.address])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            _ = try events.waitForState("stopped", timeout: 60)
            // The rooms play the end a buffer (1 s) after playbackd sent it.
            Thread.sleep(forTimeInterval: 2)

            let reference = try Self.reference(["one", "two", "three"])
            for room in rooms {
                let capture = SnapcastRig.left(room)
                let offset = try #require(WindowCorrelation.alignment(of: reference, in: capture), "\(room): no audio")
                // Snapcast loses the last 30-40 ms of a stream that stops (measured: playbackd
                // sends them, and three chunks of silence after); the windows end before.
                let worst = WindowCorrelation.worstWindow(
                    reference, in: capture, at: offset, upTo: reference.count - 2400)
                print("snapcast: \(room): worst window \(worst.score) at \(Double(worst.at) / 48_000) s")
                #expect(worst.score >= 0.99, "\(room): the window at \(Double(worst.at) / 48_000) s")
            }
        }

        @Test(
            "snapserver killed mid-play: interrupted with the position kept, the daemon answers, and play goes on by itself within 5 s of its return"
        )
        func snapserverRestarts() throws {
            let rig = try SnapcastRig()
            let room = try rig.addClient("hall")
            let daemon = try DaemonProcess(arguments: ["--snapcast", rig.address])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true)
            try events.waitForEvent { $0["nowPlaying"]?["state"]?.stringValue == "playing" }
            Thread.sleep(forTimeInterval: 2)
            rig.killServer()
            let interrupted = try #require(try events.waitForState("interrupted", timeout: 10)["nowPlaying"])
            let kept = try #require(interrupted["elapsed"]?.numberValue)
            #expect(kept > 0.5 && kept < 10, "position kept: \(kept)")
            #expect(interrupted["queueCount"]?.numberValue == 2 && interrupted["title"]?.stringValue == "Long")
            // With no snapserver the daemon answers at once, and tries again on its own.
            for _ in 0..<5 {
                let started = Date()
                #expect(try daemon.call("nowPlaying")["status"]?.stringValue == "success")
                #expect(Date().timeIntervalSince(started) < 0.5)
                Thread.sleep(forTimeInterval: 0.3)
            }
            #expect(daemon.stderrText.contains("is not there: trying again"))

            let heardBefore = SnapcastRig.left(room).count
            try rig.startServer()
            let back = Date()
            let resumed = try #require(try events.waitForState("playing", timeout: 20)["nowPlaying"])
            #expect(Date().timeIntervalSince(back) < 5, "playing again \(Date().timeIntervalSince(back)) s after")
            #expect(abs((resumed["elapsed"]?.numberValue ?? -1) - kept) < 0.5, "on from \(kept)")
            // The client reconnects by itself and plays the stream again.
            var sounded = false
            let deadline = Date().addingTimeInterval(10)
            while !sounded && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.2)
                sounded = SnapcastRig.left(room).dropFirst(heardBefore).contains { abs($0) > 2000 }
            }
            #expect(sounded, "the room plays again")
            #expect(daemon.stderrText.contains("is back after"))
        }

        /// The reference decodes of `names` one after another, resampled to 48 kHz by sox (its
        /// `rate -v`, another resampler than playbackd's libsoxr HQ: the windows are compared by
        /// correlation).
        static func reference(_ names: [String]) throws -> [Float] {
            let joined = TestEnvironment.makeTemporaryDirectory() + "/reference"
            var data = Data()
            for name in names { data.append(try TestEnvironment.reference(name)) }
            try data.write(to: URL(fileURLWithPath: joined + ".raw"))
            let sox = try CommandLineRun.run(
                executable: "/usr/bin/sox",
                [
                    "-t", "raw", "-r", "44100", "-e", "signed", "-b", "16", "-c", "2", joined + ".raw", "-t", "raw",
                    "-r", "48000", joined + ".48k.raw", "rate", "-v",
                ])
            guard sox.status == 0 else { throw TestFailure("sox: \(sox.stderr)") }
            return SnapcastRig.left(joined + ".48k.raw")
        }
    }
}
