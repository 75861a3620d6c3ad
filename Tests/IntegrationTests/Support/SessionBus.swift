import Foundation

/// A private D-Bus session bus (`dbus-daemon --session`) on a socket in its own directory, for
/// the MPRIS tests, and the real `playerctl` and `busctl` pointed at it.
final class SessionBus {
    let directory: String
    let socketPath: String
    var address: String { "unix:path=" + socketPath }
    private var server: SpawnedProcess?

    /// Starts a bus at `socketPath` (default: in a fresh directory).
    init(socketPath: String? = nil, start: Bool = true) throws {
        directory = TestEnvironment.makeTemporaryDirectory()
        self.socketPath = socketPath ?? directory + "/bus"
        if start { try self.start() }
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func start() throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        server = try SpawnedProcess(
            ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + address],
            environment: ["PATH=/usr/bin:/bin"])
        let deadline = Date().addingTimeInterval(10)
        while try busctl(["list"]).status != 0 {
            guard Date() < deadline else { throw TestFailure("dbus-daemon did not start") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// SIGKILL: the bus vanishes as it does when a session ends badly (its socket file stays).
    func kill() {
        server?.kill()
        server = nil
    }

    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    func playerctl(_ arguments: [String], player: String = "playbackd") throws -> CommandLineRun {
        try CommandLineRun.run(executable: "/usr/bin/playerctl", ["-p", player] + arguments, environment: environment)
    }

    func busctl(_ arguments: [String]) throws -> CommandLineRun {
        try CommandLineRun.run(executable: "/usr/bin/busctl", ["--user"] + arguments, environment: environment)
    }

    /// A property of the MPRIS player object, as `busctl --json=short` gives it: its `data`.
    func property(
        _ name: String, interface: String = "org.mpris.MediaPlayer2.Player",
        busName: String = "org.mpris.MediaPlayer2.playbackd"
    ) throws -> Any {
        let run = try busctl(["--json=short", "get-property", busName, "/org/mpris/MediaPlayer2", interface, name])
        guard run.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            let data = object["data"]
        else { throw TestFailure("cannot read \(name): \(run.stderr)") }
        return data
    }

    /// Calls a method of the player; returns the run (status, and busctl's error text).
    func call(_ method: String, _ signature: String = "", _ arguments: [String] = []) throws -> CommandLineRun {
        // `--` first: an argument such as "-2500000" is not an option.
        try busctl(
            [
                "--", "call", "org.mpris.MediaPlayer2.playbackd", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.Player", method,
            ] + (signature.isEmpty ? [] : [signature] + arguments))
    }

    /// Whether `name` is on the bus.
    func hasName(_ name: String) throws -> Bool {
        try busctl(["list", "--acquired"]).stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") }
    }

    /// Waits until `name` is on the bus; returns how long it took, or nil after `timeout`.
    func waitForName(_ name: String, timeout: Double) throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if try hasName(name) { return Date().timeIntervalSince(start) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}

/// `busctl --user monitor --json=short` on the player's object, one message per line: the
/// signals a desktop shell would see.
final class BusMonitor {
    private let process: SpawnedProcess
    private let outputPath: String

    init(_ bus: SessionBus) throws {
        outputPath = bus.directory + "/monitor-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process = try SpawnedProcess(
            [
                "/bin/sh", "-c",
                "exec /usr/bin/busctl --user monitor --json=short "
                    + "--match=\"type='signal',path='/org/mpris/MediaPlayer2'\" > '\(outputPath)' 2>/dev/null",
            ], environment: ["DBUS_SESSION_BUS_ADDRESS=" + bus.address, "PATH=/usr/bin:/bin"])
        // It listens once it has seen a signal of the test's own on the player's path (kept
        // out of `signals`).
        let deadline = Date().addingTimeInterval(20)
        repeat {
            _ = try bus.busctl(["emit", "/org/mpris/MediaPlayer2", Self.readyInterface, "Ready"])
            guard Date() < deadline else { throw TestFailure("busctl monitor saw nothing on the bus in 20 s") }
            Thread.sleep(forTimeInterval: 0.05)
        } while !text.contains(Self.readyInterface)
    }

    /// The interface of the signal that shows the monitor is listening.
    private static let readyInterface = "org.playbackd.Test"

    private var text: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Every signal seen so far.
    var signals: [BusSignal] {
        text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "signal", object["interface"] as? String != Self.readyInterface,
                let member = object["member"] as? String,
                let payload = object["payload"] as? [String: Any], let data = payload["data"] as? [Any]
            else { return nil }
            return BusSignal(member: member, arguments: data)
        }
    }

    /// Waits until at least `count` signals were seen, then `settle` seconds more (the window
    /// in which a signal too many would show); returns them.
    func waitForSignals(_ count: Int, timeout: Double = 10, settle: Double = 0.5) -> [BusSignal] {
        let deadline = Date().addingTimeInterval(timeout)
        while signals.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: settle)
        return signals
    }
}

/// One signal seen on the bus.
struct BusSignal {
    let member: String
    let arguments: [Any]

    /// For `PropertiesChanged`: the names of the changed properties.
    var changedProperties: Set<String> {
        guard member == "PropertiesChanged", arguments.count > 1, let changed = arguments[1] as? [String: Any] else {
            return []
        }
        return Set(changed.keys)
    }

    /// For `PropertiesChanged`: the new value's `data` of one property.
    func changed(_ property: String) -> Any? {
        guard arguments.count > 1, let changed = arguments[1] as? [String: Any],
            let value = changed[property] as? [String: Any]
        else { return nil }
        return value["data"]
    }

    /// For `Seeked`: the position in seconds.
    var seekedPosition: Double? {
        guard member == "Seeked", let microseconds = arguments.first as? NSNumber else { return nil }
        return microseconds.doubleValue / 1_000_000
    }
}
