import Foundation

/// A private PulseAudio server with a null sink (`nullsink`, 44.1 kHz stereo) in a runtime
/// directory of its own: real-time pacing and a real `snd_pcm_delay` without a sound card, for
/// one test. Killed, and its directory removed, when released.
final class PulseServer {
    let runtime: String
    private let ownsRuntime: Bool
    private var server: SpawnedProcess?

    /// Starts a server in `runtime` (made if missing), or in a fresh directory of its own.
    init(runtime: String? = nil) throws {
        ownsRuntime = runtime == nil
        self.runtime = runtime ?? TestEnvironment.makeTemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: self.runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try
            "load-module module-null-sink sink_name=nullsink rate=44100 channels=2\nset-default-sink nullsink\nload-module module-native-protocol-unix\n"
            .write(toFile: self.runtime + "/default.pa", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        kill()
        if ownsRuntime { try? FileManager.default.removeItem(atPath: runtime) }
    }

    /// What the server logged, for a failure's message.
    var log: String { (try? String(contentsOfFile: runtime + "/pulse.log", encoding: .utf8)) ?? "" }

    /// Starts (or restarts) the server; returns once it answers `pactl info`.
    func start() throws {
        server = try SpawnedProcess(
            [
                "/usr/bin/pulseaudio", "-n", "-F", runtime + "/default.pa", "--exit-idle-time=-1",
                "--daemonize=no", "--log-target=file:" + runtime + "/pulse.log",
            ], environment: ["HOME=" + runtime, "XDG_RUNTIME_DIR=" + runtime, "PATH=/usr/bin:/bin"])
        let socket = runtime + "/pulse/native"
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket) || (try? pactl(["info"])) == nil {
            guard Date() < deadline, server?.isRunning == true else {
                throw TestFailure("PulseAudio did not start in \(runtime):\n\(log.suffix(3000))")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Runs `pactl` on this server; its output.
    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        let run = try CommandLineRun.run(
            executable: "/usr/bin/pactl", arguments, environment: ["XDG_RUNTIME_DIR": runtime, "HOME": runtime])
        guard run.status == 0 else { throw TestFailure("pactl \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.stdout
    }

    /// How many playback streams are open: with ALSA's pulse plugin an open PCM is a sink
    /// input, so this shows whether a daemon holds the device.
    func openStreams() throws -> Int {
        try pactl(["list", "short", "sink-inputs"]).split(separator: "\n").count
    }

    /// `pactl list sink-inputs`: every open stream with its properties.
    func sinkInputProperties() throws -> String { try pactl(["list", "sink-inputs"]) }

    /// Waits until `count` streams are open; false after `timeout` seconds.
    func waitForStreams(_ count: Int, timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try openStreams() != count {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
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
