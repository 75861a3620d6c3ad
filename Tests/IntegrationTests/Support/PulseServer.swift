import Foundation

/// A private PulseAudio server with a null sink, for a test that kills, stops or restarts it.
final class PulseServer {
    let runtime: String
    private var server: SpawnedProcess?

    init() throws {
        runtime = TestEnvironment.makeTemporaryDirectory()
        try
            "load-module module-null-sink sink_name=nullsink rate=44100 channels=2\nset-default-sink nullsink\nload-module module-native-protocol-unix\n"
            .write(toFile: runtime + "/default.pa", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: runtime)
    }

    func start() throws {
        server = try SpawnedProcess(
            [
                "/usr/bin/pulseaudio", "-n", "-F", runtime + "/default.pa", "--exit-idle-time=-1",
                "--daemonize=no", "--log-target=file:" + runtime + "/pulse.log",
            ], environment: ["HOME=" + runtime, "XDG_RUNTIME_DIR=" + runtime, "PATH=/usr/bin:/bin"])
        let deadline = Date().addingTimeInterval(10)
        while try CommandLineRun.run(executable: "/usr/bin/pactl", ["info"], environment: ["XDG_RUNTIME_DIR": runtime])
            .status != 0
        {
            guard Date() < deadline else { throw TestFailure("PulseAudio did not start") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Sends `signal` (SIGSTOP freezes the server: every stream stalls; SIGCONT resumes).
    func signal(_ signal: Int32) { server?.signal(signal) }

    /// SIGKILL: the sound server vanishes as a crashed one or an unplugged device would.
    func kill() {
        server?.kill()
        server = nil
    }
}
