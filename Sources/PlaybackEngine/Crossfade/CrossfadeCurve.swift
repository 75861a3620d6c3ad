#if canImport(Glibc)
    import Glibc
#endif

/// The equal-power curves of a crossfade (docs/crossfade.md): over an overlap of `n` frames,
/// frame `i` takes the outgoing item's sample times `cos(π/2 · i/n)` and the incoming item's
/// times `sin(π/2 · i/n)`. The two gains' squares sum to 1, so two unrelated signals keep
/// their loudness through the overlap; frame 0 is the outgoing item alone.
public enum CrossfadeCurve {
    /// The longest overlap a crossfade may ask for, seconds.
    public static let longestSeconds = 12.0

    /// The outgoing and incoming gains of frame `frame` of an overlap of `frames` frames.
    @inline(__always)
    public static func gains(atFrame frame: Int, of frames: Int) -> (outgoing: Double, incoming: Double) {
        let angle = Double.pi / 2 * Double(frame) / Double(frames)
        return (cos(angle), sin(angle))
    }
}
