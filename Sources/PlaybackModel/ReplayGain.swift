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

/// Where a file's loudness is measured (EBU R128) for its gain, instead of read from tags.
public enum LoudnessAnalysisMode: String, CaseIterable, Sendable, Equatable {
    /// Files without gain tags; a tag wins where there is one.
    case untagged
    /// Every file (the library keeps each measure); a tag still wins.
    case all
    /// Every file, and the measure wins over its tags.
    case prefer
    /// None: an untagged file plays at `missingGain`.
    case off
}

/// The ReplayGain settings: the mode, a preamp, the gain for untagged files, whether the
/// peak limits the gain so that a tagged file never clips, and where loudness is measured.
public struct ReplayGainSettings: Sendable, Equatable {
    public var mode: ReplayGainMode
    /// dB added to every tagged gain.
    public var preamp: Double
    /// dB applied to files with no ReplayGain tags (instead of gain plus preamp).
    public var missingGain: Double
    /// Lower a gain that would lift the tagged peak above full scale.
    public var limitToPeak: Bool
    /// Which files' gain comes from their measured loudness.
    public var analysis: LoudnessAnalysisMode

    public static let preampRange = -15.0...15.0
    /// ReplayGain 2.0's reference level, LUFS: a measured file's gain brings it there.
    public static let referenceLoudness = -18.0

    public init(
        mode: ReplayGainMode = .off, preamp: Double = 0, missingGain: Double = 0, limitToPeak: Bool = true,
        analysis: LoudnessAnalysisMode = .untagged
    ) {
        self.mode = mode
        self.preamp = preamp
        self.missingGain = missingGain
        self.limitToPeak = limitToPeak
        self.analysis = analysis
    }
}

/// The ReplayGain applied to one item: where it came from and the gain in dB.
public struct AppliedReplayGain: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable, CaseIterable {
        case track, album
        /// No ReplayGain tag: the settings' gain for untagged files.
        case untagged
        /// The file's measured loudness (`LoudnessAnalysisMode`).
        case analysis
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
    /// Whether the gain of an item with `metadata` would come from its measured loudness: never
    /// while ReplayGain is off, else as `analysis` says.
    public func usesMeasurement(for metadata: TrackMetadata) -> Bool {
        switch (mode, analysis) {
        case (.off, _), (_, .off): false
        case (_, .prefer): true
        case (_, .untagged), (_, .all): metadata.replayGainTrackGain == nil && metadata.replayGainAlbumGain == nil
        }
    }

    /// The gain for `metadata`; `inAlbum` says whether its neighbours in play order share its
    /// album (for `auto`); `measured` is the item's measured loudness, when known. Nil when the
    /// mode is off. A measured item is brought to `referenceLoudness` (preamp added, limited by
    /// its peak as a tagged gain is), by its album's loudness where the album gain applies and
    /// it was measured with its album; digital silence, which has no loudness, gets no gain.
    public func gain(for metadata: TrackMetadata, inAlbum: Bool, measured: Loudness? = nil) -> AppliedReplayGain? {
        if let measured, usesMeasurement(for: metadata) {
            let albumLoudness = mode == .album || (mode == .auto && inAlbum) ? measured.album : nil
            guard let loudness = albumLoudness ?? measured.integrated else {
                return AppliedReplayGain(source: .analysis, gain: 0)
            }
            var gain = Self.referenceLoudness - loudness + preamp
            if limitToPeak, measured.peak > 0 { gain = min(gain, -20 * log10(measured.peak)) }
            return AppliedReplayGain(source: .analysis, gain: gain)
        }
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
