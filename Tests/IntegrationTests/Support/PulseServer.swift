import Foundation

/// A private PulseAudio server with a null sink, for a test that kills and restarts it.
/// Started with `posix_spawn` rather than Foundation's `Process`, whose child monitor blocks in
/// `wait4` on a long-lived PulseAudio and then never reports other children's exits.
final class PulseServer {
    let runtime: String
    private var pid: pid_t = 0

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
        let arguments = [
            "/usr/bin/pulseaudio", "-n", "-F", runtime + "/default.pa", "--exit-idle-time=-1",
            "--daemonize=no", "--log-target=file:" + runtime + "/pulse.log",
        ]
        let environment = ["HOME=" + runtime, "XDG_RUNTIME_DIR=" + runtime, "PATH=/usr/bin:/bin"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], nil, nil, &argv, &envp) == 0 else {
            throw TestFailure("cannot start pulseaudio")
        }
        let deadline = Date().addingTimeInterval(10)
        while try CommandLineRun.run(executable: "/usr/bin/pactl", ["info"], environment: ["XDG_RUNTIME_DIR": runtime])
            .status != 0
        {
            guard Date() < deadline else { throw TestFailure("PulseAudio did not start") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// SIGKILL: the sound server vanishes as a crashed one or an unplugged device would.
    func kill() {
        guard pid > 0 else { return }
        Foundation.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }
}
