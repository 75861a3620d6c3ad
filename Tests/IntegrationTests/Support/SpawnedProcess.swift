import Foundation

/// A long-lived child started with `posix_spawn` rather than Foundation's `Process`, whose
/// child monitor blocks in `wait4` on such a child and then never reports other children's
/// exits (so every later `CommandLineRun` would hang). Killed when released.
final class SpawnedProcess {
    private(set) var pid: pid_t = 0

    /// Starts `arguments[0]` (a path) with exactly `environment` (`NAME=value` entries).
    init(_ arguments: [String], environment: [String]) throws {
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], nil, nil, &argv, &envp) == 0 else {
            throw TestFailure("cannot start \(arguments[0])")
        }
    }

    deinit { kill() }

    func signal(_ signal: Int32) {
        if pid > 0 { Foundation.kill(pid, signal) }
    }

    /// SIGKILL, and reaps it.
    func kill() {
        guard pid > 0 else { return }
        Foundation.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }
}
