import ControlProtocol
import Foundation
import PlaybackModel
import Synchronization
import SystemSupport
import Testing

@testable import PlaybackDaemon

@Suite struct StatePersisterTests {
    private func state(position: Double) -> ResumeState {
        ResumeState(
            items: [
                QueueItem(
                    id: 1, path: "/a.mp3",
                    metadata: TrackMetadata(title: "a", duration: 9, sampleRate: 44_100, channels: 2))
            ],
            currentIndex: 0, position: position, state: .paused, repeatMode: .off, shuffleMode: .off,
            shuffledOrder: nil, disabledCommands: [])
    }

    @Test("a save asked for while a write is in flight is written after it; a burst collapses into one write")
    func saveDuringWrite() throws {
        let loop = EventLoop()
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let written = Mutex<[Double]>([])
        let log = DaemonLog(label: "test", output: LogOutput(threshold: .error, target: .stderr))
        let persister = StatePersister(file: StateFile(path: "/nonexistent/state.json"), loop: loop, log: log) {
            content in
            // The first line: everything but the items.
            let header = content.header.prefix { $0 != UInt8(ascii: "\n") }
            let position = (try? JSONParser.parse(header))?["position"]?.numberValue ?? -1
            if written.withLock({ $0.isEmpty }) {
                entered.signal()
                gate.wait()
            }
            written.withLock { $0.append(position) }
            return (nil, nil)
        }
        persister.save(state(position: 1))
        entered.wait()  // the worker is inside the first write
        for position in 2...50 { persister.save(state(position: Double(position))) }
        gate.signal()
        // Run the loop until the second write has happened (a generous bound, never reached).
        let poll = OneShotTimer(loop: loop)
        let deadline = Date().addingTimeInterval(20)
        func check() {
            if written.withLock({ $0.count >= 2 }) || Date() > deadline { return loop.stop() }
            poll.arm(after: 0.01, check)
        }
        poll.arm(after: 0.01, check)
        loop.run()
        #expect(written.withLock { $0 } == [1, 50], "the first write, then one with the latest state")
    }

    /// A persister writing the real file in a directory of its own, recording how each write
    /// went: "new" lines, lines "copied" from the file written last, or a "copy failed".
    /// `afterWrite` runs after each, with the kinds so far.
    private func recordingPersister(
        in directory: String, afterWrite: @escaping @Sendable ([String]) -> Void = { _ in }
    ) -> (StatePersister, Locked<[String]>) {
        let file = StateFile(path: directory + "/state.json")
        let kinds = Locked<[String]>([])
        let log = DaemonLog(label: "test", output: LogOutput(threshold: .error, target: .stderr))
        let persister = StatePersister(file: file, loop: EventLoop(), log: log) { content in
            let saved = file.save(content)
            let kind: String
            if case .copy = content.items {
                kind = saved.failure == nil ? "copied" : "copy failed"
            } else {
                kind = "new"
            }
            afterWrite(
                kinds.withLock {
                    $0.append(kind); return $0
                })
            return saved
        }
        return (persister, kinds)
    }

    private func books(current: Int) -> ResumeState {
        ResumeState(
            items: StateFixture.books(40), currentIndex: current, position: 1, state: .paused, repeatMode: .off,
            shuffleMode: .off, shuffledOrder: nil, disabledCommands: [])
    }

    @Test("a save of the same items copies their lines from the file written last; the file is as if written whole")
    func copiesItemLines() throws {
        let directory = NSTemporaryDirectory() + "playbackd-persister-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (persister, kinds) = recordingPersister(in: directory)
        let first = books(current: 25)
        var moved = first
        moved.position = 9
        moved.currentIndex = 30
        persister.save(first)
        persister.saveNow(moved)
        #expect(kinds.withLock { $0 } == ["new", "copied"])
        let bytes = try #require(FileManager.default.contents(atPath: directory + "/state.json"))
        #expect(Array(bytes) == moved.fileBytes())
        // The head the file gives is the moved state's current item.
        let head = try #require(try ResumeState.head(fileBytes: Array(bytes), minimumItems: 0))
        #expect(head.0.items.first?.path == moved.items[30].path)
    }

    @Test("lines that cannot be copied (the file written last was cut short meanwhile) are written anew")
    func copyFailsOver() throws {
        let directory = NSTemporaryDirectory() + "playbackd-persister-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Someone cuts the file short after the first write.
        let (persister, kinds) = recordingPersister(in: directory) { kinds in
            if kinds == ["new"] { truncate(directory + "/state.json", 10) }
        }
        let first = books(current: 3)
        var moved = first
        moved.position = 9
        persister.save(first)
        persister.saveNow(moved)
        #expect(kinds.withLock { $0 } == ["new", "copy failed", "new"])
        let bytes = try #require(FileManager.default.contents(atPath: directory + "/state.json"))
        #expect(Array(bytes) == moved.fileBytes())
    }

    @Test("after a restart, the first saves copy the item lines of the file read while its items are those")
    func adoptsLinesRead() throws {
        let directory = NSTemporaryDirectory() + "playbackd-persister-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let written = books(current: 25)
        #expect(FileManager.default.createFile(atPath: directory + "/state.json", contents: Data(written.fileBytes())))
        guard case .state(let read, let lines?) = StateFile(path: directory + "/state.json").load() else {
            Issue.record("the file did not read back as a state with its item lines")
            return
        }
        #expect(read.items == written.items && lines.layout.count == 40)
        let restored = ItemsVersion(queue: 3, revision: 0)
        let (persister, kinds) = recordingPersister(in: directory)
        persister.adopt(lines, version: restored)
        var moved = read
        (moved.itemsVersion, moved.position, moved.currentIndex) = (restored, 9, 30)
        persister.save(moved)
        moved.position = 12
        persister.saveNow(moved)
        #expect(kinds.withLock { $0 } == ["copied", "copied"])
        let bytes = try #require(FileManager.default.contents(atPath: directory + "/state.json"))
        #expect(Array(bytes) == moved.fileBytes())

        // Items other than those read (another version) are written anew.
        let (other, otherKinds) = recordingPersister(in: directory)
        guard case .state(_, let again?) = StateFile(path: directory + "/state.json").load() else {
            Issue.record("the saved file did not read back")
            return
        }
        other.adopt(again, version: restored)
        var changed = moved
        changed.items.removeLast()
        changed.itemsVersion = ItemsVersion(queue: 3, revision: 1)
        other.saveNow(changed)
        #expect(otherKinds.withLock { $0 } == ["new"])
        #expect(FileManager.default.contents(atPath: directory + "/state.json").map(Array.init) == changed.fileBytes())
    }
}
