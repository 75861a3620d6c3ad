import Foundation
import Testing

/// The scope each integration test runs in: a thread of its own (the tests block on sockets,
/// pipes and child processes, and Swift Testing's cooperative pool has one thread per core),
/// at most `width` tests at a time, and afterwards a look at the process table: a program the
/// test started that is still running fails the test and is killed; then the directories it
/// made go. How long each test took goes to `$PLAYBACKD_TEST_ROOT/durations` for
/// `Scripts/test`'s summary.
struct TestWorlds: SuiteTrait, TestTrait, TestScoping {
    /// How many tests run at once: `PLAYBACKD_TEST_WORLDS`, else 12. The tests mostly wait on
    /// real-time playback and on other programs, so twelve keep two cores busy.
    static let width = Int(TestEnvironment.environment["PLAYBACKD_TEST_WORLDS"] ?? "") ?? 12

    /// The running test's mark (`PLAYBACKD_TEST_ID` in what it starts), read on its thread.
    @TaskLocal static var currentTest: String?

    private static let gate = Gate(width)
    private static let directories = DirectoryRegistry()

    /// Removes `directory` when the running test ends (nothing outside a test).
    static func removeAtEnd(_ directory: String) {
        if let test = currentTest { directories.add(directory, for: test) }
    }
    private static let executor = ThreadPerJobExecutor()
    private static let serial = Atomic(0)

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        await Self.gate.enter()
        let id = "\(getpid())-\(Self.serial.next())"
        let started = Date()
        defer {
            // A program whose parent the test ended (a plugin snapserver started) ends by
            // itself a moment later: what is still there after 5 s was left behind.
            var left = ProcessTable.processes(markedWith: "PLAYBACKD_TEST_ID=" + id)
            let deadline = Date().addingTimeInterval(5)
            while !left.isEmpty && Date() < deadline {
                usleep(20_000)
                left = ProcessTable.processes(markedWith: "PLAYBACKD_TEST_ID=" + id)
            }
            if !left.isEmpty {
                left.forEach { kill($0.pid, SIGKILL) }
                Issue.record("the test left programs running (killed now): \(left.map(\.command))")
            }
            for directory in Self.directories.take(id) { try? FileManager.default.removeItem(atPath: directory) }
            Self.record(test, seconds: Date().timeIntervalSince(started))
            Task { await Self.gate.leave() }
        }
        try await Self.$currentTest.withValue(id) {
            try await withTaskExecutorPreference(Self.executor) { try await function() }
        }
    }

    private static func record(_ test: Test, seconds: Double) {
        guard let root = TestEnvironment.environment["PLAYBACKD_TEST_ROOT"] else { return }
        // The test's suites and name, without the source location its identifier ends in.
        let name = test.id.description.split(separator: "/").filter { !$0.contains(".swift:") }.joined(separator: "/")
        let line = String(format: "%.1f\t%@\n", seconds, name)
        let fd = open(root + "/durations", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }
}

extension Trait where Self == TestWorlds {
    /// Each test on a thread of its own, a bounded number at a time, checked for programs left
    /// running (`TestWorlds`).
    static var worlds: TestWorlds { TestWorlds() }
}

/// A counting semaphore for tasks: `enter` suspends (never blocks a thread) while `width`
/// holders are inside.
private actor Gate {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ width: Int) { free = max(1, width) }

    func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// Runs each job on a new thread: a test's synchronous body then blocks that thread only.
private final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A counter shared by the tests' threads.
private final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int
    init(_ value: Int) { self.value = value }
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// The directories each running test made, by its mark.
private final class DirectoryRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [String: [String]] = [:]

    func add(_ directory: String, for test: String) {
        lock.lock()
        made[test, default: []].append(directory)
        lock.unlock()
    }

    func take(_ test: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return made.removeValue(forKey: test) ?? []
    }
}

/// The processes of this machine, read from `/proc`.
enum ProcessTable {
    /// Every running process whose environment holds `mark` (`NAME=value`), with its command.
    static func processes(markedWith mark: String) -> [(pid: pid_t, command: String)] {
        let wanted = Array(mark.utf8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> (pid_t, String)? in
            guard let pid = pid_t(name), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                environ.split(separator: 0).contains(where: { $0.elementsEqual(wanted) })
            else { return nil }
            let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline").map {
                String(decoding: $0.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            }
            return (pid, command ?? name)
        }
    }
}
