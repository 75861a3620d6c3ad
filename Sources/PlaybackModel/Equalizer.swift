/// The filter of one equalizer band: `AVAudioUnitEQFilterType`'s set, each an RBJ Audio EQ
/// Cookbook biquad.
public enum EQFilterType: String, CaseIterable, Sendable, Equatable {
    case parametric, lowShelf, highShelf, lowPass, highPass, bandPass, bandStop
    case resonantLowPass, resonantHighPass, resonantLowShelf, resonantHighShelf

    /// Every type in a fixed order, allocated once: its index is the type's number in
    /// fixed-size storage (`allCases` builds a new array on every call).
    public static let ordered: [EQFilterType] = allCases

    /// Whether the band's gain shapes it (peaking and shelving filters); the others ignore it.
    public var usesGain: Bool {
        switch self {
        case .parametric, .lowShelf, .highShelf, .resonantLowShelf, .resonantHighShelf: true
        default: false
        }
    }
}

/// One band of the equalizer, as `AVAudioUnitEQFilterParameters` has it.
public struct EQBand: Sendable, Equatable {
    public var type: EQFilterType
    /// Centre or corner frequency, Hz.
    public var frequency: Double
    /// Bandwidth in octaves (0.05 - 5).
    public var bandwidth: Double
    /// The width as a quality factor instead of `bandwidth`, when set (AutoEq and Equalizer
    /// APO give Q); the filter then uses the cookbook's `alpha = sin(w0) / 2Q` at every rate.
    public var q: Double?
    /// dB (-96 - 24); used by peaking and shelving filters.
    public var gain: Double
    public var bypass: Bool

    public init(
        type: EQFilterType, frequency: Double, bandwidth: Double = 1, q: Double? = nil, gain: Double = 0,
        bypass: Bool = false
    ) {
        self.type = type
        self.frequency = frequency
        self.bandwidth = bandwidth
        self.q = q
        self.gain = gain
        self.bypass = bypass
    }

    public static let frequencyRange = 10.0...24_000.0
    public static let bandwidthRange = 0.05...5.0
    public static let qRange = 0.025...40.0
    public static let gainRange = -96.0...24.0

    /// Why the band cannot be used, naming the value; nil when every value is in range.
    public var problem: String? {
        if !Self.frequencyRange.contains(frequency) { return "frequency \(frequency) Hz is outside 10 - 24000 Hz" }
        if !Self.bandwidthRange.contains(bandwidth) { return "bandwidth \(bandwidth) octaves is outside 0.05 - 5" }
        if let q, !Self.qRange.contains(q) { return "Q \(q) is outside 0.025 - 40" }
        if !Self.gainRange.contains(gain) { return "gain \(gain) dB is outside -96 - 24 dB" }
        return nil
    }

    /// Whether the band leaves the signal exactly as it is: bypassed, or a peaking or shelving
    /// filter at 0 dB.
    public var isFlat: Bool { bypass || (type.usesGain && gain == 0) }

    /// The bandwidth in octaves of a quality factor Q (the cookbook's digital conversion,
    /// inverted for the band's frequency at `sampleRate`): one octave is Q 1.414.
    public static func bandwidth(q: Double, frequency: Double, sampleRate: Double) -> Double {
        let w0 = 2 * Double.pi * frequency / sampleRate
        // 1/Q = 2 sinh(ln2/2 * BW * w0/sin w0)
        return 2 * asinhApprox(1 / (2 * q)) / log(2) * sin(w0) / w0
    }

    private static func asinhApprox(_ x: Double) -> Double { log(x + (x * x + 1).squareRoot()) }
}

/// The equalizer: up to 16 bands and a global gain (`AVAudioUnitEQ.globalGain`).
public struct Equalizer: Sendable, Equatable {
    public static let maximumBands = 16
    /// Ten one-octave bands, 32 Hz to 16 kHz.
    public static let tenBandFrequencies: [Double] = [32, 64, 128, 256, 500, 1000, 2000, 4000, 8000, 16000]

    public var isEnabled: Bool
    public var bands: [EQBand]
    /// dB (-96 - 24), applied after the bands.
    public var globalGain: Double
    /// dB, applied before the bands (AutoEq's `Preamp:`); the automatic preamp adds only what
    /// this does not already cover.
    public var preamp: Double
    /// The preset or file the curve was loaded from; nil once it is edited.
    public var preset: String?

    public init(
        isEnabled: Bool = false, bands: [EQBand] = Equalizer.flatTenBands, globalGain: Double = 0,
        preamp: Double = 0, preset: String? = nil
    ) {
        self.isEnabled = isEnabled
        self.bands = bands
        self.globalGain = globalGain
        self.preamp = preamp
        self.preset = preset
    }

    /// Why the equalizer cannot be used, naming the band; nil when it can.
    public var problem: String? {
        if bands.count > Self.maximumBands { return "\(bands.count) bands, at most \(Self.maximumBands)" }
        for (index, band) in bands.enumerated() {
            if let problem = band.problem { return "band \(index + 1): \(problem)" }
        }
        if !EQBand.gainRange.contains(globalGain) { return "global gain \(globalGain) dB is outside -96 - 24 dB" }
        if !EQBand.gainRange.contains(preamp) { return "preamp \(preamp) dB is outside -96 - 24 dB" }
        return nil
    }

    /// Ten parametric bands an octave apart (32 Hz to 16 kHz), one octave wide, at 0 dB.
    public static let flatTenBands = tenBandFrequencies.map { EQBand(type: .parametric, frequency: $0) }

    /// Whether the equalizer leaves the signal exactly as it is.
    public var isFlat: Bool { !isEnabled || (globalGain == 0 && preamp == 0 && bands.allSatisfy(\.isFlat)) }
}

#if canImport(Glibc)
    import Glibc
#endif
