import ControlClient
import ControlProtocol
import Foundation
import Testing

/// A `playbackd` process started for one test, in a world of its own: its own directory
/// with its socket, capture file, XDG configuration, state and cache directories, runtime
/// directory and home, and with `pulse` a PulseAudio server of its own (`soundServer`).
/// It is launched without `CAP_DAC_OVERRIDE` (via `setpriv`), so file permissions apply even
/// when the tests run as root. Ready when it sent `READY=1` to the test's notify socket.
final class DaemonProcess {
    let directory: String
    let socketPath: String
    let capturePath: String
    /// The sound server the daemon plays to: its own (`pulse: true`) or one it was given.
    let soundServer: PulseServer?
    private let process = Process()
    /// The daemon's stderr goes to a file, never a pipe: a pipe nobody reads while the daemon
    /// runs fills at 64 KiB and then blocks the daemon's next log line, and the daemon with it.
    private let stderrPath: String
    private let stderrHandle: FileHandle
    let notify: NotifyListener

    /// Starts the daemon on `device` with `arguments`; the capture devices of the test ALSA
    /// configuration write to `capturePath`. `pulse` starts a PulseAudio server of its own
    /// for it; `soundServer` shares one between daemons. The socket is in the daemon's own
    /// directory unless `socketPath` names one (to restart a daemon where a client expects it).
    /// `launcher` (an absolute program and its arguments) runs the daemon's command line, and
    /// must exec it (to set up a mount namespace first, say).
    init(
        device: String = "playbackd_capture", arguments: [String] = [], pulse: Bool = false,
        soundServer: PulseServer? = nil, socketPath: String? = nil, environment extra: [String: String] = [:],
        stderrIsJournal: Bool = false, launcher: [String] = []
    ) throws {
        directory = TestEnvironment.makeTemporaryDirectory()
        self.socketPath = socketPath ?? directory + "/control.sock"
        capturePath = directory + "/capture"
        stderrPath = directory + "/stderr.log"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        notify = try NotifyListener(path: directory + "/notify")
        self.soundServer = try soundServer ?? (pulse ? PulseServer(runtime: directory + "/pulse") : nil)
        let runtime = self.soundServer?.runtime ?? directory + "/run"
        for own in [runtime, directory + "/home"] {
            try FileManager.default.createDirectory(
                atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = TestEnvironment.alsaConfigPath
        environment["PLAYBACKD_CAPTURE"] = capturePath
        environment["NOTIFY_SOCKET"] = notify.path
        environment["LISTEN_FDS"] = nil
        // The sound server of its world (or none: libpulse then finds nothing to talk to),
        // and a home of its own: libpulse keeps a cookie there.
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["HOME"] = directory + "/home"
        // The tests' own configuration only: never the developer's config.toml.
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        // Its own resume state too, unless the test shares one between daemons.
        environment["XDG_STATE_HOME"] = directory + "/state"
        environment["STATE_DIRECTORY"] = nil
        // Its own cache (phrases), unless the test shares one.
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        // No session bus unless the test brings its own: never the developer's desktop bus.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/no-session-bus"
        environment.merge(extra) { $1 }
        environment = TestEnvironment.marked(environment)
        process.environment = environment
        let daemon = TestEnvironment.binDirectory + "/playbackd"
        let daemonArguments = ["--socket", self.socketPath, "--device", device, "--log-level", "debug"] + arguments
        var command = [daemon] + daemonArguments
        if getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            command = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] + command
        }
        command = launcher + command
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardError = stderrHandle
        if stderrIsJournal {
            // What systemd sets when it connects stderr to the journal: the stream's device and inode.
            var info = stat()
            fstat(stderrHandle.fileDescriptor, &info)
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
            process.environment = environment
        }
        process.standardOutput = FileHandle.nullDevice
        try Self.withNoSignalBlocked { try process.run() }
        guard notify.waitFor("READY=1", timeout: 20) else {
            process.terminate()
            throw TestFailure("playbackd did not become ready:\n\(worldLogs)")
        }
    }

    deinit {
        if !process.isRunning && process.terminationReason == .uncaughtSignal
            && [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV].contains(process.terminationStatus)
        {
            Issue.record("playbackd crashed (signal \(process.terminationStatus)):\n\(worldLogs)")
        } else if process.isRunning && stop(with: SIGTERM) == nil {
            Issue.record("playbackd did not exit within 30 s of SIGTERM (killed):\n\(worldLogs)")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        soundServer?.kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the daemon and its sound server logged, for a failure's message; while the daemon
    /// runs, where each of its threads is (`threadReport`).
    var worldLogs: String {
        "playbackd:\n\(stderrText.suffix(4000))"
            + (process.isRunning ? "\nits threads now:\n\(threadReport(pid))" : "")
            + (soundServer.map { "\nPulseAudio:\n\($0.log.suffix(2000))" } ?? "")
    }

    /// The daemon's sound server; fails the test when it has none.
    func server() throws -> PulseServer {
        guard let soundServer else { throw TestFailure("this daemon has no sound server") }
        return soundServer
    }

    var pid: Int32 { process.processIdentifier }

    /// Voluntary context switches so far (how often it went to sleep and woke up): of the
    /// event loop (the main thread), or of all the daemon's threads.
    func wakeups(allThreads: Bool = false) throws -> Int {
        let tasks =
            allThreads ? try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") : ["\(pid)"]
        return try tasks.reduce(0) { total, task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
            return total + (try #require(Int(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces))))
        }
    }

    /// Runs `body` (which spawns the daemon) with no signal blocked in the calling thread, so
    /// the daemon starts as systemd starts a service: a child inherits the spawning thread's
    /// mask, and the test runner's threads (libdispatch workers) block nearly every signal,
    /// which would hide a daemon thread that leaves SIGTERM unblocked.
    private static func withNoSignalBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
    var isRunning: Bool { process.isRunning }

    /// What the daemon logged so far.
    var stderrText: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    func connect() throws -> ControlClient { try ControlClient(path: socketPath) }

    /// Sends one request on a new connection and returns the reply.
    @discardableResult
    func call(_ command: String, _ arguments: [(String, JSONValue)] = [], id: JSONValue? = nil) throws -> JSONValue {
        var members: [(String, JSONValue)] = id.map { [("id", $0)] } ?? []
        members.append(("command", .string(command)))
        return try connect().request(.object(members + arguments))
    }

    func nowPlaying() throws -> JSONValue {
        guard let snapshot = try call("nowPlaying")["nowPlaying"] else { throw TestFailure("no nowPlaying in reply") }
        return snapshot
    }

    func enqueue(_ names: [String], play: Bool = false, replace: Bool = false) throws -> JSONValue {
        try call(
            "enqueue",
            [
                ("items", .array(names.map { .string(TestEnvironment.fixture($0)) })),
                ("play", .bool(play)), ("replace", .bool(replace)),
            ])
    }

    /// Sends SIGTERM and waits; returns the exit status.
    /// Sends `signal` to the daemon.
    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the daemon to exit by itself; its status, or nil after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    func terminate() -> Int32 {
        guard let status = stop(with: SIGTERM) else {
            Issue.record("playbackd did not exit within 30 s of SIGTERM (killed):\n\(worldLogs)")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        return status
    }

    /// Sends `signal` and waits up to `timeout` seconds for the exit (a daemon that never
    /// exits must not hold the suite); its status, or nil.
    private func stop(with signal: Int32, timeout: Double = 30) -> Int32? {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout: timeout)
    }

    /// Polls `nowPlaying` until the state is `state`; fails after `timeout` seconds.
    @discardableResult
    func waitForState(_ state: String, timeout: Double = 10) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let snapshot = try nowPlaying()
            if snapshot["state"]?.stringValue == state { return snapshot }
            usleep(20_000)
        }
        throw TestFailure("the state did not become \(state) within \(timeout) s")
    }

    /// The capture file's contents (file device).
    func captured(suffix: String = "") throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: capturePath + suffix))
    }
}

extension ControlClient {
    /// Subscribes and returns the first snapshot.
    func subscribe() throws -> JSONValue {
        let reply = try request(.object([("command", .string("subscribe"))]))
        guard let snapshot = reply["nowPlaying"] else {
            throw TestFailure("subscribe reply without nowPlaying: \(reply.serialized)")
        }
        return snapshot
    }

    /// Reads pushed events until one satisfies `predicate`; fails after `timeout` seconds.
    @discardableResult
    func waitForEvent(timeout: Double = 20, _ predicate: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let event = try readLine(timeout: remaining) else {
                throw TestFailure("no matching event within \(timeout) s")
            }
            if predicate(event) { return event }
        }
    }

    /// Waits for an event that changed the state to `state`.
    @discardableResult
    func waitForState(_ state: String, timeout: Double = 20) throws -> JSONValue {
        try waitForEvent(timeout: timeout) {
            $0["changes"]?.arrayValue?.contains(.string("state")) == true
                && $0["nowPlaying"]?["state"]?.stringValue == state
        }
    }
}
