import ControlProtocol
import PlaybackModel

/// The A-B loop: the range is handed to the engine as the current item ending at its end,
/// followed by passes from its start to its end (`PlayerState.engineItems`), so each loop
/// point is an item boundary like a repeat-one loop's: seamless and sample-exact.
extension PlayerService {
    func setLoopRange(start: Double, end: Double, count: Int) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        guard !state.phraseMode.isEnabled else {
            return .failure(CommandFailure(.commandFailed, "phrase mode is on: turn it off for an A-B loop"))
        }
        let duration = item.metadata.duration
        guard end <= duration else {
            return .failure(
                CommandFailure(
                    .badRequest,
                    "'end' (\(JSONValue.number(end).serialized) s) is past the item's end (\(JSONValue.number(duration).serialized) s)"
                ))
        }
        note(state.setLoop(LoopRange(itemID: item.id, start: start, end: end, count: count)))
        // The running pipeline's item has no end before the loop's: it starts again where it
        // is heard, ending there (when it is before the end; after it, the loop waits for a
        // seek back).
        if state.transport == .playing, engine.isRunning, let heard = engine.currentPosition(),
            heard.frame < item.metadata.frame(at: end)
        {
            restartAtHeardFrame(for: "an A-B loop", fadingIn: false)
        } else {
            refreshUpcoming()
        }
        return .success(.done)
    }

    /// The pass playing ends at the loop's end, and the rest of the item follows it there:
    /// the loop ends without a restart, unless the decoder has begun another pass already.
    func clearLoopRange() -> CommandResult {
        note(state.setLoop(nil))
        refreshUpcoming()
        return .success(.done)
    }
}
