import ControlProtocol
import Foundation
import Testing

/// Polls `condition` every 20 ms; records a failure after `timeout` seconds (a bound no working
/// daemon nears), with `state()` (the last thing seen) in its message when given.
func waitUntil(
    timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation, state: () -> String = { "" },
    _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else {
            let seen = state()
            Issue.record(
                "condition not met within \(timeout) s\(seen.isEmpty ? "" : "; last seen: \(seen)")",
                sourceLocation: sourceLocation)
            return
        }
        Thread.sleep(forTimeInterval: 0.02)
    }
}

/// Voluntary and involuntary context switches of every thread of `pid`: how often it woke up,
/// or, with `preemptions` false, only how often it slept and woke (a busy machine preempts a
/// thread that runs; a thread that spins without sleeping shows only as preempted).
func threadWakeups(_ pid: Int32, preemptions: Bool = true) throws -> Int {
    var total = 0
    let name = { (task: String) in try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8) }
    for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
        // ThreadSanitizer's runtime has a thread of its own that wakes every 100 ms; it has no
        // name, so it carries the process's. Every thread the daemon starts is named.
        if TestEnvironment.sanitizer == "thread" && task != "\(pid)" && name(task) == name("\(pid)") { continue }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n")
        where line.hasPrefix(preemptions ? "" : "voluntary") && line.contains("ctxt_switches:") {
            total += Int(line.split(separator: "\t").last.map(String.init) ?? "0") ?? 0
        }
    }
    return total
}

/// Waits until no thread of `pid` has woken for `quiet` seconds (whatever it was finishing:
/// start-up, a reply, a release), so that a count of wake-ups that follows measures only the
/// quiet state; records a failure after `timeout` seconds of activity.
func waitUntilQuiet(
    _ pid: Int32, for quiet: Double = 0.5, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var last = try threadWakeups(pid)
    var since = Date()
    while Date().timeIntervalSince(since) < quiet {
        guard Date() < deadline else {
            Issue.record("pid \(pid) kept waking up for \(timeout) s", sourceLocation: sourceLocation)
            return
        }
        Thread.sleep(forTimeInterval: 0.05)
        let now = try threadWakeups(pid)
        if now != last { (last, since) = (now, Date()) }
    }
}

extension DaemonProcess {
    /// Waits until the position the daemon reports (extrapolated to now) has reached
    /// `seconds`; records a failure, with the last snapshot, after `timeout` seconds.
    func waitForElapsed(
        atLeast seconds: Double, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var last: JSONValue?
        try waitUntil(timeout: timeout, sourceLocation: sourceLocation, state: { last?.serialized ?? "nothing" }) {
            last = try nowPlaying()
            return extrapolated(last) >= seconds
        }
    }
}

/// Each thread of `pid`: its name, its scheduler state (`R` running, `S` sleeping, `D` waiting
/// on the kernel, e.g. a disk), the kernel function it waits in (`wchan`) and the number of the
/// system call it is in (74 is fsync), one per line.
/// What a failure shows of a process that did not do in time what it was asked.
func threadReport(_ pid: Int32) -> String {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.sorted().map { task in
        let read = { (file: String) in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/\(file)", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let state = read("status").split(separator: "\n").first { $0.hasPrefix("State:") }?.dropFirst(6)
        let call = read("syscall").split(separator: " ").first ?? "?"
        return
            "  \(read("comm")): \(state.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?") in \(read("wchan")) (syscall \(call))"
    }.joined(separator: "\n")
}

/// Whether a Unix stream socket at `path` listens (`/proc/net/unix` shows it with
/// `__SO_ACCEPTCON`). Its file appears at `bind`, before `listen`; a connection made in between
/// is refused, so a test that waits for the file alone fails at random.
func isListening(_ path: String) -> Bool {
    procText("/proc/net/unix").split(separator: "\n").contains { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 8 && fields[3] == "00010000" && fields[7...].joined(separator: " ") == path
    }
}

/// A /proc file read to its end; empty when it cannot be opened. /proc files have no size, and
/// `String(contentsOfFile:)` stops at its first read: 50 of `/proc/net/unix`'s 303 lines with
/// 300 sockets listening, 3.8 KB of a process's 165 KB `smaps`.
func procText(_ path: String) -> String {
    guard let file = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? file.close() }
    return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
}
