import PlaybackEngine

/// What the engine is to do, as the state says (`PlayerState.plan`): whether anything is open
/// and what plays, the sound settings, and the sleep timer's fade. `EngineDriver.apply`
/// compares it with what the engine does and makes the difference.
struct EnginePlan: Equatable {
    enum Output: Equatable {
        /// Nothing open (stopped): the disk the music came from can be unmounted.
        case released
        /// Nothing plays; the device and the item's file are kept for the hold time (paused or
        /// interrupted). Without `keepsDevice` (the pause of a lost route) the device is closed
        /// at once.
        case held(keepsDevice: Bool)
        /// A pipeline plays.
        case playing(Start)
    }

    /// The pipeline to run.
    struct Start: Equatable {
        /// Which start it is (`PlannedStart.pipeline`): another number is another pipeline.
        var pipeline: Int
        /// The frame of the current item it starts at; nil: where the running pipeline ends (a
        /// restart in place, which halts it first, or splices when it fades in).
        var frame: Int?
        /// The first 5 ms rise from silence (a restart in mid-sound that is not a seek).
        var fadesIn: Bool
        /// The rate its items play at.
        var rate: Double
        /// The item it starts with; nil until `frame` is known.
        var current: EngineItem?
        /// What plays after it: for the running pipeline, its list from the item heard on.
        var upcoming: [EngineItem]
        /// A live stream connects anew (the connection a pause held is stale).
        var connectsAnew: Bool
        /// A skip's crossfade: the item left, from where it was heard to the fade's end, which
        /// the pipeline plays first, fading out as `current` fades in.
        var fadingFrom: EngineItem? = nil
    }

    var output: Output
    /// The equalizer and volume.
    var sound: SoundSettings
    /// The sleep timer's fade for the running pipeline; nil for none.
    var sleepFade: SleepFade?
}
