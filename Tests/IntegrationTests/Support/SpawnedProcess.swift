import CTestSpawn
import Foundation

/// A long-lived child started with `posix_spawn` (`playbackd_test_spawn`: no signal blocked,
/// no descriptor of the runner's but 0-2) rather than Foundation's `Process`, whose child
/// monitor blocks in `wait4` on such a child and then never reports other children's exits
/// (so every later `CommandLineRun` would hang). Killed when released.
final class SpawnedProcess {
    private(set) var pid: pid_t = 0

    /// Starts `arguments[0]` (a path) with exactly `environment` (`NAME=value` entries) and
    /// the test's marks (`TestEnvironment.marked`).
    init(_ arguments: [String], environment: [String]) throws {
        let marks = TestEnvironment.marked([:]).map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = (environment + marks).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        guard playbackd_test_spawn(&pid, arguments[0], &argv, &envp) == 0 else {
            throw TestFailure("cannot start \(arguments[0])")
        }
    }

    deinit { kill() }

    /// Whether it has not exited (or has exited and is not reaped yet: a zombie counts as
    /// gone).
    var isRunning: Bool {
        guard pid > 0 else { return false }
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
            .split(separator: ")").last?.split(separator: " ").first
        return state != nil && state != "Z"
    }

    func signal(_ signal: Int32) {
        if pid > 0 { Foundation.kill(pid, signal) }
    }

    /// SIGTERM, and reaps it (a program that writes a file closes it so).
    func terminate() { end(with: SIGTERM) }

    /// Sends `signal` and waits for the program to exit by itself (a recorder that flushes its
    /// file on SIGINT); SIGKILL after `timeout` seconds.
    func stop(with signal: Int32, timeout: Double = 10) {
        guard pid > 0 else { return }
        Foundation.kill(pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else { return kill() }
            usleep(10_000)
        }
        pid = 0
    }

    /// SIGKILL, and reaps it.
    func kill() { end(with: SIGKILL) }

    private func end(with signal: Int32) {
        guard pid > 0 else { return }
        Foundation.kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }
}
