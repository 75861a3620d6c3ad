import Foundation
import Testing

extension IntegrationSuite {
    /// The sound chain through the daemon and the real ALSA file device: transparent settings
    /// leave every byte as `mpg123 --gapless -s` decodes it; volume scales every sample.
    @Suite struct Sound {
        @Test("a flat equalizer switched on and volume 100 leave the capture byte-identical")
        func flatIsBitExact() throws {
            let daemon = try DaemonProcess(arguments: ["--equalizer", "true", "--eq-gains", "0,0,0,0,0,0,0,0,0,0"])
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            try daemon.waitForState("stopped")
            let expected = try ["one", "two", "three"].map(TestEnvironment.reference).reduce(Data(), +)
            #expect(try daemon.captured() == expected)
        }

        @Test("volume 50 halves every sample, within the dither's ±1 LSB")
        func volumeScalesEverySample() throws {
            let daemon = try DaemonProcess(arguments: ["--volume", "50"])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let reference = try TestEnvironment.reference("long")
            let captured = try daemon.captured()
            #expect(captured.count == reference.count)
            let worst = reference.withUnsafeBytes { input in
                captured.withUnsafeBytes { output in
                    zip(input.bindMemory(to: Int16.self), output.bindMemory(to: Int16.self)).reduce(0.0) {
                        max($0, abs(Double($1.1) - Double($1.0) / 2))
                    }
                }
            }
            #expect(worst <= 1.5, "largest difference from half the reference: \(worst) LSB")
        }

        @Test("a curve boosted by 12 dB is scaled down so nothing clips; the seed's curve changes the sound")
        func equalizedCurveNeverClips() throws {
            let daemon = try DaemonProcess(arguments: [
                "--equalizer", "true", "--eq-gains", "12,12,12,12,12,12,12,12,12,12",
            ])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let captured = try daemon.captured()
            let peak = captured.withUnsafeBytes { $0.bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0 }
            #expect(peak < 32767, "the automatic preamp keeps a +12 dB curve from clipping (peak \(peak))")
            #expect(captured != (try TestEnvironment.reference("long")))
        }

        @Test("bad equalizer and volume settings are refused with the setting and the reason")
        func badSettings() throws {
            for (arguments, message) in [
                (["--eq-gains", "1,2,3"], "expected ten gains, one per band, found 3"),
                (["--eq-gains", "0,0,0,0,0,0,0,0,0,30"], "30 dB is out of range (-96 to 24)"),
                (["--eq-gains", "0,0,0,0,0,0,0,0,0,x"], "'x' is not a number of dB"),
                (["--volume", "120"], "120% is out of range (0 to 100%)"),
            ] {
                let run = try CommandLineRun.run("playbackd", ["--socket", "/nonexistent/s"] + arguments)
                #expect(run.status == 2, "a bad flag is a usage error: \(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for (text, message) in [
                ("eq-gains = [1, 2]\n", "config.toml:1: eq-gains: expected ten gains, one per band, found 2"),
                ("eq-gains = [\"a\", 1]\n", "config.toml:1: eq-gains: "),
                ("volume = -1\n", "config.toml:1: volume: -1% is out of range (0 to 100%)"),
            ] {
                try text.write(toFile: directory + "/config.toml", atomically: true, encoding: .utf8)
                let run = try CommandLineRun.run(
                    "playbackd", ["--socket", "/nonexistent/s", "--config", directory + "/config.toml"])
                #expect(run.status == 78, "\(text)")
                #expect(run.stderr.contains(message), "\(text): \(run.stderr)")
            }
        }
    }
}
