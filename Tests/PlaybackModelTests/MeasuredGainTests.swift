import Foundation
import PlaybackModel
import Testing

/// The gain of a measured item (`ReplayGainSettings.gain(for:inAlbum:measured:)`): ReplayGain
/// 2.0's -18 LUFS reference, the preamp, the peak limit, silence, and when tags win.
@Suite struct MeasuredGainTests {
    static let untagged = TrackMetadata(title: "u", duration: 200, sampleRate: 44_100, channels: 2)
    static var tagged: TrackMetadata {
        var metadata = untagged
        metadata.replayGainTrackGain = -4
        return metadata
    }

    @Test("an untagged item is brought to -18 LUFS, preamp added, limited by its peak; silence gets no gain")
    func reference() {
        let settings = ReplayGainSettings(mode: .track, preamp: 2)
        let quiet = Loudness(integrated: -30, peak: 0.1)
        #expect(
            settings.gain(for: Self.untagged, inAlbum: false, measured: quiet)
                == AppliedReplayGain(source: .analysis, gain: 14))
        // +22 dB would lift a 0.5 peak over full scale: 6.02 dB is all there is.
        let peaky = Loudness(integrated: -38, peak: 0.5)
        let limited = settings.gain(for: Self.untagged, inAlbum: false, measured: peaky)
        #expect(limited?.source == .analysis && abs((limited?.gain ?? 0) - 20 * log10(2)) < 1e-9)
        var unlimited = settings
        unlimited.limitToPeak = false
        #expect(unlimited.gain(for: Self.untagged, inAlbum: false, measured: peaky)?.gain == 22)
        let silence = Loudness(integrated: nil, peak: 0)
        #expect(
            settings.gain(for: Self.untagged, inAlbum: false, measured: silence)
                == AppliedReplayGain(source: .analysis, gain: 0))
        // Not measured yet: the gain for untagged files.
        #expect(settings.gain(for: Self.untagged, inAlbum: false)?.source == .untagged)
    }

    @Test(
        "which items take their measure, per loudness-analysis mode: tags win but with prefer; nothing while ReplayGain is off",
        arguments: [
            (LoudnessAnalysisMode.untagged, true, false), (.all, true, false), (.prefer, true, true),
            (.off, false, false),
        ])
    func modes(analysis: LoudnessAnalysisMode, untaggedMeasured: Bool, taggedMeasured: Bool) {
        let settings = ReplayGainSettings(mode: .track, analysis: analysis)
        let measured = Loudness(integrated: -20, peak: 0.1)
        #expect(settings.usesMeasurement(for: Self.untagged) == untaggedMeasured)
        #expect(settings.usesMeasurement(for: Self.tagged) == taggedMeasured)
        let tagged = settings.gain(for: Self.tagged, inAlbum: false, measured: measured)
        #expect(
            tagged
                == (taggedMeasured
                    ? AppliedReplayGain(source: .analysis, gain: 2) : AppliedReplayGain(source: .track, gain: -4)))
        var off = settings
        off.mode = .off
        #expect(!off.usesMeasurement(for: Self.untagged))
        #expect(off.gain(for: Self.untagged, inAlbum: false, measured: measured) == nil)
    }
}
