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

    /// Runs `pactl` on this server; its output.
    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        let run = try CommandLineRun.run(
            executable: "/usr/bin/pactl", arguments, environment: ["XDG_RUNTIME_DIR": runtime])
        guard run.status == 0 else { throw TestFailure("pactl \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.stdout
    }

    /// Loads a null sink named `name` that mixers show as `description`, playing `format`
    /// (`pactl`'s names) at `rate`; the module's index.
    func loadSink(
        _ name: String, description: String, makeDefault: Bool, format: String = "s16le", rate: Int = 44_100
    ) throws -> String {
        let module = try pactl([
            "load-module", "module-null-sink", "sink_name=\(name)", "sink_properties=device.description=\(description)",
            "format=\(format)", "rate=\(rate)", "channels=2",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        if makeDefault { try pactl(["set-default-sink", name]) }
        return module
    }

    /// The name of the sink the one open stream plays on; nil when none is open.
    func sinkOfStream() throws -> String? {
        let sinks = Dictionary(
            uniqueKeysWithValues: try pactl(["list", "short", "sinks"]).split(separator: "\n").map {
                let cells = $0.split(separator: "\t")
                return (String(cells[0]), String(cells[1]))
            })
        guard let stream = try pactl(["list", "short", "sink-inputs"]).split(separator: "\n").first else { return nil }
        return sinks[String(stream.split(separator: "\t")[1])]
    }

    /// How many of the server's clients `pid` has open.
    func clients(of pid: Int32) throws -> Int {
        try pactl(["list", "clients"]).components(separatedBy: "application.process.id = \"\(pid)\"").count - 1
    }

    /// Sends `signal` (SIGSTOP freezes the server: every stream stalls; SIGCONT resumes).
    func signal(_ signal: Int32) { server?.signal(signal) }

    /// SIGKILL: the sound server vanishes as a crashed one or an unplugged device would.
    func kill() {
        server?.kill()
        server = nil
    }
}
