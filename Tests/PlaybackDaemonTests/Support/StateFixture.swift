import ControlProtocol
import PlaybackEngine
import PlaybackModel

@testable import PlaybackDaemon

/// A player state driven as the service drives it, with no engine, loop or clock: commands at
/// a moment, the engine heard as data (`heard`), a start reported as the driver reports it.
/// Items are books of `duration` seconds at 44.1 kHz (long enough to keep a bookmark).
struct StateFixture {
    static let rate = 44100
    var state: PlayerState
    /// The wall clock, seconds since the epoch.
    var now = 1000.0

    init(books count: Int = 3, duration: Double = 1200, chapters: [Chapter] = [], settings: DaemonSettings = .init()) {
        state = PlayerState(settings: settings)
        _ = state.insert(Self.books(count, duration: duration, chapters: chapters), placement: .end, replace: false)
    }

    static func books(_ count: Int, duration: Double = 1200, chapters: [Chapter] = []) -> [QueueItem] {
        (0..<count).map {
            var metadata = TrackMetadata(title: "book \($0)", duration: duration, sampleRate: rate, channels: 2)
            metadata.chapters = chapters
            return QueueItem(id: UInt64($0 + 1), path: "/books/\($0).m4b", metadata: metadata)
        }
    }

    static func frame(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }

    /// What the engine plays: `seconds` into the current item (nil while nothing plays).
    func heard(_ seconds: Double) -> EnginePosition? {
        guard state.transport == .playing, let item = state.queue.current else { return nil }
        return EnginePosition(itemID: item.id, frame: Self.frame(seconds), sampleRate: Self.rate)
    }

    /// Carries out `command` heard at `seconds`, as the service's step does.
    mutating func perform(_ command: PlayerCommand, heard seconds: Double = 0) -> (CommandResult, ChangeSet) {
        state.perform(command, at: Moment(heard: heard(seconds), now: now))
    }

    /// Plays, and takes in the start as the engine driver reports it.
    mutating func play() {
        _ = perform(.play)
        started()
    }

    /// The pipeline the plan asks for started where it asked.
    mutating func started() {
        guard case .playing(let start) = state.plan(shown: nil, now: now).0.output, let frame = start.frame else {
            return
        }
        state.engineStarted(pipeline: start.pipeline, at: frame)
    }

    /// What the engine is to do now, with what is heard at `seconds` shown (the service takes
    /// in what planning records, `started` does; a look at the plan changes nothing).
    func plan(heard seconds: Double? = nil) -> EnginePlan {
        var planned = state
        return planned.plan(shown: seconds.map { shown(at: $0) }, now: now).0
    }

    /// The pipeline the plan starts; nil when it plays none or keeps the one running.
    func plannedStart() -> EnginePlan.Start? {
        guard case .playing(let start) = plan().output, start.frame != nil else { return nil }
        return start
    }

    /// The snapshot of the current item heard at `seconds` now, advancing at rate 1 while
    /// playing.
    func shown(at seconds: Double) -> NowPlaying {
        state.snapshot(
            frame: Self.frame(seconds), timestamp: now, rate: state.transport == .playing ? 1 : 0, now: now)
    }

    /// When `deadline` falls with the current item heard at `seconds`.
    func deadline(_ deadline: StateDeadline, heard seconds: Double) -> Double? {
        state.deadline(deadline, shown: shown(at: seconds), now: now)
    }

    /// The time of `deadline` came, the current item heard at `seconds`.
    mutating func reach(_ deadline: StateDeadline, heard seconds: Double) -> ChangeSet {
        state.reach(deadline, shown: shown(at: seconds), at: Moment(heard: heard(seconds), now: now)).0
    }

    /// Where the current item's bookmark stands.
    var bookmark: Double? { state.queue.current.flatMap { state.bookmarks.position(for: $0) } }
}
