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
        // With no signal blocked (the test runner's threads may block some, and a child
        // inherits the mask): `terminate` must reach it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        guard posix_spawn(&pid, arguments[0], nil, &attributes, &argv, &envp) == 0 else {
            throw TestFailure("cannot start \(arguments[0])")
        }
    }

    deinit { kill() }

    func signal(_ signal: Int32) {
        if pid > 0 { Foundation.kill(pid, signal) }
    }

    /// SIGTERM, and reaps it (a program that writes a file closes it so).
    func terminate() { end(with: SIGTERM) }

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
