#if canImport(Glibc)
    import Glibc
#endif

/// Which ReplayGain value a player applies (MPD's and mpv's modes).
public enum ReplayGainMode: String, CaseIterable, Sendable, Equatable {
    /// None: the samples as decoded.
    case off
    /// Each item's track gain.
    case track
    /// The album gain, so an album keeps its own loudness steps.
    case album
    /// Album gain when the queue plays in order and an item next to this one is from the same
    /// album, else track.
    case auto
}

/// The ReplayGain settings: the mode, a preamp, the gain for untagged files, and whether the
/// peak limits the gain so that a tagged file never clips.
public struct ReplayGainSettings: Sendable, Equatable {
    public var mode: ReplayGainMode
    /// dB added to every tagged gain.
    public var preamp: Double
    /// dB applied to files with no ReplayGain tags (instead of gain plus preamp).
    public var missingGain: Double
    /// Lower a gain that would lift the tagged peak above full scale.
    public var limitToPeak: Bool

    public static let preampRange = -15.0...15.0

    public init(mode: ReplayGainMode = .off, preamp: Double = 0, missingGain: Double = 0, limitToPeak: Bool = true) {
        self.mode = mode
        self.preamp = preamp
        self.missingGain = missingGain
        self.limitToPeak = limitToPeak
    }
}

/// The ReplayGain applied to one item: where it came from and the gain in dB.
public struct AppliedReplayGain: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable, CaseIterable {
        case track, album
        /// No ReplayGain tag: the settings' gain for untagged files.
        case untagged
    }

    public var source: Source
    /// dB, preamp and peak limit included.
    public var gain: Double

    public init(source: Source, gain: Double) {
        self.source = source
        self.gain = gain
    }

    /// The linear factor.
    public var factor: Double { pow(10, gain / 20) }
}

extension ReplayGainSettings {
    /// The gain for `metadata`; `inAlbum` says whether its neighbours in play order share its
    /// album (for `auto`). Nil when the mode is off.
    public func gain(for metadata: TrackMetadata, inAlbum: Bool) -> AppliedReplayGain? {
        let useAlbum: Bool
        switch mode {
        case .off: return nil
        case .track: useAlbum = false
        case .album: useAlbum = true
        case .auto: useAlbum = inAlbum
        }
        let track = metadata.replayGainTrackGain.map {
            (AppliedReplayGain.Source.track, $0, metadata.replayGainTrackPeak)
        }
        let album = metadata.replayGainAlbumGain.map {
            (AppliedReplayGain.Source.album, $0, metadata.replayGainAlbumPeak)
        }
        // The other value stands in when the wanted one is missing.
        guard let (source, tagged, peak) = useAlbum ? album ?? track : track ?? album else {
            return AppliedReplayGain(source: .untagged, gain: missingGain)
        }
        var gain = tagged + preamp
        if limitToPeak, let peak, peak > 0 { gain = min(gain, -20 * log10(peak)) }
        return AppliedReplayGain(source: source, gain: gain)
    }
}

extension TrackMetadata {
    /// Whether two items are from the same album (both tagged with it, and by the same album
    /// artist when either names one).
    public func isSameAlbum(as other: TrackMetadata) -> Bool {
        guard let album, album == other.album else { return false }
        return albumArtist == other.albumArtist
    }
}
