import ControlProtocol
import Foundation
import PlaybackModel
import Synchronization
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
            bytes in
            // The first line: everything but the items.
            let header = bytes.prefix { $0 != UInt8(ascii: "\n") }
            let position = (try? JSONParser.parse(header))?["position"]?.numberValue ?? -1
            if written.withLock({ $0.isEmpty }) {
                entered.signal()
                gate.wait()
            }
            written.withLock { $0.append(position) }
            return nil
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
}
