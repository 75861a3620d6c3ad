import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// Phrase mode: the analysis of the current item, the mode itself, and moving by phrase. The
/// steps reach the engine as items (`PlayerState.phraseItems`); which one is heard comes back
/// with each boundary (`phraseHeard`).
extension PlayerService {
    func setPhraseMode(_ change: PhraseModeChange) -> CommandResult {
        let mode = change.applied(to: state.phraseMode)
        if mode.isEnabled && state.loopRange != nil { note(state.setLoop(nil)) }
        let wasPlayingPhrases = state.isPlayingPhrases
        let changes = note(state.setPhraseMode(mode))
        analysePhrasesIfWanted()
        // The pipeline running plays what the mode asked for before: it starts again where it
        // is heard (from a gap, at the next step).
        if !changes.isEmpty && (wasPlayingPhrases || state.isPlayingPhrases) {
            restartAtHeardFrame(for: "phrase mode", fadingIn: false)
        }
        return .success(.done)
    }

    func nextPhrase() -> CommandResult {
        movePhrase { index, list in
            guard index + 1 < list.phrases.count else { return list.isComplete ? nil : index }
            return index + 1
        }
    }

    func previousPhrase() -> CommandResult { movePhrase { index, _ in max(0, index - 1) } }

    func replayPhrase() -> CommandResult { movePhrase { index, _ in index } }

    /// Moves to the phrase `target` picks from the one playing; nil from the last phrase: on
    /// to the next item.
    private func movePhrase(_ target: (Int, PhraseList) -> Int?) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        guard let list = state.currentPhrases, !list.phrases.isEmpty,
            let index = state.phraseIndex(at: item.metadata.seconds(atFrame: playedFrame()))
        else { return noPhrases() }
        guard let next = target(index, list) else {
            return nextTrack().map { _ in
                .position(state.queue.current.map { $0.metadata.seconds(atFrame: state.heldFrame) } ?? 0)
            }
        }
        guard let start = state.moveToPhrase(next) else { return noPhrases() }
        note(.phrase)
        return seek(to: start)
    }

    func listPhrases() -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        if let failure = state.currentPhraseFailure {
            return .failure(
                CommandFailure(
                    .commandFailed, "the phrases of \(StreamURL.redacted(item.path)) cannot be found: \(failure)"))
        }
        analysePhrases(of: item)
        return .success(.phrases(state.currentPhrases ?? PhraseList(phrases: [], isComplete: false)))
    }

    func analyzePhrases(threshold: Double?, minimumSilence: Double?) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        var parameters = state.phraseDefaults
        if let threshold { parameters.threshold = threshold }
        if let minimumSilence { parameters.minimumSilence = minimumSilence }
        note(state.setPhraseParameters(parameters, for: item))
        analysePhrases(of: item)
        return .success(.done)
    }

    private func noPhrases() -> CommandResult {
        if let failure = state.currentPhraseFailure {
            return .failure(CommandFailure(.commandFailed, "the item has no phrases: \(failure)"))
        }
        if let list = state.currentPhrases, list.isComplete {
            return .failure(CommandFailure(.commandFailed, "the item has no phrases: it is silent"))
        }
        if let item = state.queue.current { analysePhrases(of: item) }
        return .failure(CommandFailure(.commandFailed, "the item's phrases are not known yet: the analysis is running"))
    }

    /// In phrase mode, the current item is analysed (from where it plays) unless its phrases
    /// are known or being found.
    func analysePhrasesIfWanted() {
        guard state.phraseMode.isEnabled, let item = state.queue.current else { return }
        analysePhrases(of: item)
    }

    private func analysePhrases(of item: QueueItem) {
        let parameters = state.phraseParameters(for: item)
        if let stored = state.storedPhrases, stored.itemID == item.id, stored.parameters == parameters,
            stored.failure != nil || stored.list?.isComplete == true
        {
            return
        }
        guard item.metadata.isSeekable else {
            note(
                state.setPhrases(
                    StoredPhrases(
                        itemID: item.id, parameters: parameters, failure: "a live stream has no phrases")))
            return
        }
        phraseAnalyzer.request(
            PhraseAnalyzer.Request(
                itemID: item.id, path: item.path, parameters: parameters, startFrame: playedFrame()))
    }

    /// An analysis reported: its phrases become the item's (when it is still current and the
    /// parameters still its own), and phrase mode plays them (`refreshUpcoming`: a pipeline
    /// that plays the item whole starts again where it is heard; one that plays phrases takes
    /// the new list).
    func phrasesFound(_ result: PhraseAnalyzer.Result) {
        guard let item = state.queue.current, item.id == result.request.itemID,
            result.request.parameters == state.phraseParameters(for: item)
        else { return }
        var stored = StoredPhrases(itemID: item.id, parameters: result.request.parameters)
        switch result.outcome {
        case .success(let list): stored.list = list
        case .failure(let error):
            stored.failure = "\(error)"
            log.warning("cannot find the phrases of \(StreamURL.redacted(item.path)): \(error)")
        }
        note(state.setPhrases(stored))
        if state.isPlayingPhrases { refreshUpcoming() }
    }
}
