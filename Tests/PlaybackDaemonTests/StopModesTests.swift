import ControlProtocol
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// Single and consume on the state value: where an item ends, what the engine is given, what
/// the queue keeps, and what a restart brings back.
@Suite struct StopModesTests {
    /// A state playing `count` 60 s items, the first current, as the engine runs it.
    private func playing(_ count: Int) -> PlayerState {
        var state = PlayerStateTests.queued(count)
        _ = state.startPlaying(at: 0)
        state.engineStarted(pipeline: state.start.pipeline, at: 0)
        return state
    }

    /// The current item played to its end: the engine's pipeline finished after it.
    private func finish(_ state: inout PlayerState) -> ChangeSet {
        let id = state.queue.current!.id
        return state.pipelineFinished(
            last: EnginePosition(itemID: id, frame: 60 * 44100, sampleRate: 44100), next: nil, now: 100)
    }

    @Test("single once: the engine gets nothing after the item; at its end paused on the next, at its start, and off")
    func stopAfterCurrent() {
        var state = playing(3)
        #expect(state.perform(.changeSingleMode(.once), at: Moment(now: 0)).1 == .modes)
        let given = state.engineItems(startingAt: 0)
        #expect(given?.upcoming.isEmpty == true)
        let changes = finish(&state)
        #expect(changes.isSuperset(of: [.item, .state, .modes]))
        #expect(state.transport == .paused && state.queue.current?.id == 2 && state.heldFrame == 0)
        #expect(state.queue.singleMode == .off)
        let after = state.engineItems(startingAt: 0)
        #expect(after?.upcoming.map(\.id) == [3], "off again: the rest follows")
    }

    @Test("single on stops at every item; at the last one the queue ends, stopped, and single stays")
    func singleOn() {
        var state = playing(2)
        _ = state.perform(.changeSingleMode(.on), at: Moment(now: 0))
        _ = finish(&state)
        #expect(state.transport == .paused && state.queue.current?.id == 2 && state.queue.singleMode == .on)
        _ = state.startPlaying(at: 0)
        state.engineStarted(pipeline: state.start.pipeline, at: 0)
        _ = finish(&state)
        #expect(state.transport == .stopped && state.queue.current == nil && state.queue.singleMode == .on)
    }

    @Test("consume: an item played leaves the queue, at a boundary, at the end and with nextTrack; once, then off")
    func consume() {
        var state = playing(4)
        _ = state.perform(.changeConsumeMode(.on), at: Moment(now: 0))
        // A gapless boundary: the engine is heard in the next item.
        #expect(state.follow(toItem: 2).isSuperset(of: [.item, .queue]))
        #expect(state.queue.items.map(\.id) == [2, 3, 4] && state.queue.currentIndex == 0)
        _ = state.perform(.nextTrack, at: Moment(now: 1))
        #expect(state.queue.items.map(\.id) == [3, 4] && state.queue.current?.id == 3)
        _ = state.perform(.changeConsumeMode(.once), at: Moment(now: 2))
        state.engineStarted(pipeline: state.start.pipeline, at: 0)
        _ = finish(&state)
        #expect(state.queue.items.map(\.id) == [4] && state.queue.consumeMode == .off)
        _ = state.perform(.changeConsumeMode(.on), at: Moment(now: 3))
        _ = finish(&state)
        #expect(state.queue.isEmpty && state.transport == .stopped, "the last item too, as MPD")
    }

    @Test("priorities out of range are refused; the modes and priorities are saved and restored")
    func savedAndRestored() throws {
        var state = playing(3)
        let refused = state.perform(.setPriority(3, indices: [0, 7]), at: Moment(now: 0))
        guard case .failure = refused.0 else { Issue.record("index 7 of 3 was taken"); return }
        #expect(state.queue.items[0].priority == 0, "nothing is set when one index is outside")
        _ = state.perform(.setPriority(3, indices: [2]), at: Moment(now: 0))
        _ = state.perform(.changeSingleMode(.once), at: Moment(now: 0))
        _ = state.perform(.changeConsumeMode(.on), at: Moment(now: 0))
        let saved = state.resumeState(frame: 0)
        let read = try ResumeState(fileBytes: saved.fileBytes())
        #expect(read.singleMode == .once && read.consumeMode == .on)
        #expect(read.items.map(\.priority) == [0, 0, 3])
        var restored = PlayerState(settings: DaemonSettings())
        _ = restored.restore(read, vanished: [])
        #expect(restored.queue.singleMode == .once && restored.queue.consumeMode == .on)
        #expect(restored.queue.items[2].priority == 3)
    }
}
