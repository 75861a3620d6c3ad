/// A signal's loudness as EBU R128 defines it.
public struct Loudness: Sendable, Equatable {
    /// The integrated (gated) loudness, LUFS; nil when no block passes the absolute gate
    /// (digital silence), which has no loudness and gets no gain.
    public var integrated: Double?
    /// The highest sample of any channel, full scale 1 (or the true peak, between samples,
    /// when the meter measured it).
    public var peak: Double
    /// The integrated loudness of the album the signal is a track of, measured over all its
    /// tracks together, LUFS; nil when it was measured alone (or the album is silent).
    public var album: Double?

    public init(integrated: Double?, peak: Double, album: Double? = nil) {
        self.integrated = integrated
        self.peak = peak
        self.album = album
    }
}
