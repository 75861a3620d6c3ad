import ControlProtocol
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// Resume saves because its state differs from the one saved last (`ResumeSaveRule`), never
/// because a change met a list of bits: each field changed alone is a save, and a field added
/// to `ResumeState` later fails `everyFieldIsChanged` until it is changed here too.
@Suite struct ResumeSaveRuleTests {
    static let base = ResumeState(
        items: [
            QueueItem(
                id: 1, path: "/m/a.mp3",
                metadata: TrackMetadata(title: "a", duration: 100, sampleRate: 44_100, channels: 2)),
            QueueItem(
                id: 2, path: "/m/b.mp3",
                metadata: TrackMetadata(title: "b", duration: 100, sampleRate: 44_100, channels: 2)),
        ],
        currentIndex: 0, position: 10, state: .paused, repeatMode: .off, shuffleMode: .off, shuffledOrder: nil,
        disabledCommands: [])

    /// One change of each field, by its name in `ResumeState`.
    static let changes: [String: @Sendable (inout ResumeState) -> Void] = [
        "items": { state in
            state.items.removeLast()
            state.itemsVersion.revision += 1
        },
        "currentIndex": { $0.currentIndex = 1 },
        "position": { $0.position = 42 },
        "state": { $0.state = .stopped },
        "repeatMode": { $0.repeatMode = .all },
        "shuffleMode": { $0.shuffleMode = .items },
        "shuffledOrder": { $0.shuffledOrder = [1, 0] },
        "singleMode": { $0.singleMode = .once },
        "consumeMode": { $0.consumeMode = .on },
        "disabledCommands": { $0.disabledCommands = [.nextTrack] },
        "volume": { $0.volume = 40 },
        "equalizer": { state in
            var equalizer = Equalizer()
            equalizer.isEnabled = true
            state.equalizer = equalizer
        },
        "playbackRate": { $0.playbackRate = 1.5 },
        "phraseMode": { $0.phraseMode = PhraseMode(isEnabled: true, repeats: 2, gapFactor: 1, gapExtra: 0) },
        "crossfade": { $0.crossfade = Crossfade(seconds: 3, mode: .always, skipSeconds: 0) },
        "outputEnabled": { $0.outputEnabled = false },
        "itemsVersion": { $0.itemsVersion.queue += 1 },
    ]

    @Test("every field of ResumeState has a change here: a field added later fails this until it does")
    func everyFieldIsChanged() {
        let fields = Set(Mirror(reflecting: Self.base).children.compactMap(\.label))
        #expect(fields == Set(Self.changes.keys))
    }

    @Test("each field changed alone is a save; the same state again is none", arguments: Self.changes.keys.sorted())
    func eachFieldSaves(_ field: String) throws {
        var rule = ResumeSaveRule()
        #expect(rule.differs(Self.base, at: 0), "nothing was saved yet")
        rule.wrote(Self.base, at: 0, rate: 0)
        #expect(!rule.differs(Self.base, at: 60), "paused: the same state a minute later")
        var changed = Self.base
        let change = try #require(Self.changes[field])
        change(&changed)
        #expect(changed != Self.base, "the change of \(field) changes the state")
        #expect(rule.differs(changed, at: 1), "\(field) changed alone")
    }

    @Test("while playing, a position that went on at the rate is no change; a seek or a pause is")
    func playingOn() {
        var rule = ResumeSaveRule()
        var playing = Self.base
        playing.state = .playing
        rule.wrote(playing, at: 100, rate: 2)
        var later = playing
        later.position = 10 + 2 * 30.05
        #expect(!rule.differs(later, at: 130), "30 s on at rate 2, within the tolerance")
        later.position = 10 + 2 * 30 + 1
        #expect(rule.differs(later, at: 130), "a second further: a seek")
        var paused = later
        paused.position = 70
        paused.state = .paused
        #expect(rule.differs(paused, at: 130))
        rule.forget()
        #expect(rule.differs(playing, at: 100), "forgotten: anything differs")
    }
}
