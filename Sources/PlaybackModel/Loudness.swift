/// A signal's loudness as EBU R128 defines it.
public struct Loudness: Sendable, Equatable {
    /// The integrated (gated) loudness, LUFS; nil when no block passes the absolute gate
    /// (digital silence), which has no loudness and gets no gain.
    public var integrated: Double?
    /// The highest sample of any channel, full scale 1 (or the true peak, between samples,
    /// when the meter measured it).
    public var peak: Double

    public init(integrated: Double?, peak: Double) {
        self.integrated = integrated
        self.peak = peak
    }
}
