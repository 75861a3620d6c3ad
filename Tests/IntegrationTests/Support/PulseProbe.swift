import Foundation

/// Asks the test PulseAudio server whether a playback stream is open: with ALSA's pulse
/// plugin, an open PCM is a sink input, so this shows whether the daemon holds the device.
enum PulseProbe {
    static func openStreams(runtime: String? = TestEnvironment.pulseRuntime) throws -> Int {
        guard let runtime else { throw TestFailure("no test PulseAudio server") }
        let run = try CommandLineRun.run(
            executable: "/usr/bin/pactl", ["list", "short", "sink-inputs"],
            environment: ["XDG_RUNTIME_DIR": runtime])
        guard run.status == 0 else { throw TestFailure("pactl failed: \(run.stderr)") }
        return run.stdout.split(separator: "\n").count
    }

    /// `pactl list sink-inputs`: every open stream with its properties.
    static func sinkInputProperties() throws -> String {
        guard let runtime = TestEnvironment.pulseRuntime else { throw TestFailure("no test PulseAudio server") }
        let run = try CommandLineRun.run(
            executable: "/usr/bin/pactl", ["list", "sink-inputs"], environment: ["XDG_RUNTIME_DIR": runtime])
        guard run.status == 0 else { throw TestFailure("pactl failed: \(run.stderr)") }
        return run.stdout
    }

    /// Waits until the number of open streams is `count`; false after `timeout` seconds.
    static func waitForStreams(_ count: Int, timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try openStreams() != count {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }
}
