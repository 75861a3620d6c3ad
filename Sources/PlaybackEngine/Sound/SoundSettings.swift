import PlaybackModel

/// What the output applies to the decoded samples: the equalizer and the volume. The event
/// loop sets it on the engine (`PlaybackEngine.setSound`); the output thread picks it up at its
/// next write.
public struct SoundSettings: Sendable, Equatable {
    public var equalizer: Equalizer
    /// Linear gain, 0 - 1 (100%).
    public var volume: Double
    /// The sleep timer's fade-out in the running pipeline (`PlaybackEngine.fadeForSleep`).
    var fade: SampleFade?

    public init(equalizer: Equalizer = Equalizer(), volume: Double = 1) {
        self.equalizer = equalizer
        self.volume = volume
    }

    /// A fade to silence between two ring samples of one pipeline.
    struct SampleFade: Sendable, Equatable {
        var startSample: Int
        var endSample: Int
    }

    /// Whether the output is the decoded samples, bit for bit.
    public var isTransparent: Bool { equalizer.isFlat && volume == 1 }
}
