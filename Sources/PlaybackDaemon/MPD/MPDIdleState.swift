import PlaybackModel

/// What each of MPD's idle events (`idle`'s names) shows of the player, as values: an event is
/// due when its value differs from the one announced before, and `player` also when the
/// position jumped. Compared values, not a list of change bits, decide: what a change touches
/// is announced whichever step made it.
struct MPDIdleState: Equatable {
    /// `player`: started, stopped, paused, another song or its tags, another rate.
    struct Player: Equatable {
        var state: PlaybackState
        var item: QueueItem?
        var queueIndex: Int?
        var defaultRate: Double
    }

    /// `options`: repeat, random, single, consume, crossfade, ReplayGain.
    struct Options: Equatable {
        var repeatMode: RepeatMode
        var shuffleMode: ShuffleMode
        var singleMode: SingleMode
        var consumeMode: ConsumeMode
        var crossfade: Crossfade
        var replayGainMode: ReplayGainMode
    }

    var player: Player
    /// `playlist`: the queue's items.
    var playlist: ItemsVersion
    /// `mixer`: the volume.
    var mixer: Double
    var options: Options
    /// `output`: the output switch.
    var output: Bool
    /// `update` when it changes, `database` too when a scan ended.
    var scanning: Bool

    init(_ view: PlayerView) {
        let shown = view.nowPlaying
        player = Player(
            state: shown.state, item: shown.item, queueIndex: shown.queueIndex, defaultRate: shown.defaultRate)
        playlist = view.resume.itemsVersion
        mixer = shown.volume
        options = Options(
            repeatMode: shown.repeatMode, shuffleMode: shown.shuffleMode, singleMode: shown.singleMode,
            consumeMode: shown.consumeMode, crossfade: shown.crossfade,
            replayGainMode: view.replayGainMode)
        output = shown.outputEnabled
        scanning = view.library?.state == .scanning
    }

    /// The idle events from `earlier` to this state; `jumped` says whether the position jumped
    /// in the same item between the two.
    func events(since earlier: MPDIdleState, jumped: Bool) -> Set<String> {
        var events: Set<String> = []
        if player != earlier.player || jumped { events.insert("player") }
        if playlist != earlier.playlist { events.insert("playlist") }
        if mixer != earlier.mixer { events.insert("mixer") }
        if options != earlier.options { events.insert("options") }
        if output != earlier.output { events.insert("output") }
        if scanning != earlier.scanning {
            events.insert("update")
            if !scanning { events.insert("database") }
        }
        return events
    }
}
