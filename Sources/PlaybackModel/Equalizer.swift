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
    /// dB (-96 - 24); used by peaking and shelving filters.
    public var gain: Double
    public var bypass: Bool

    public init(type: EQFilterType, frequency: Double, bandwidth: Double = 1, gain: Double = 0, bypass: Bool = false) {
        self.type = type
        self.frequency = frequency
        self.bandwidth = bandwidth
        self.gain = gain
        self.bypass = bypass
    }

    public static let frequencyRange = 10.0...24_000.0
    public static let bandwidthRange = 0.05...5.0
    public static let gainRange = -96.0...24.0

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
    /// The seed's ten octave bands.
    public static let tenBandFrequencies: [Double] = [32, 64, 128, 256, 500, 1000, 2000, 4000, 8000, 16000]

    public var isEnabled: Bool
    public var bands: [EQBand]
    /// dB (-96 - 24), applied after the bands.
    public var globalGain: Double
    /// dB, applied before the bands (AutoEq's `Preamp:`); the automatic preamp adds only what
    /// this does not already cover.
    public var preamp: Double

    public init(isEnabled: Bool = false, bands: [EQBand] = Equalizer.flatTenBands, globalGain: Double = 0, preamp: Double = 0)
    {
        self.isEnabled = isEnabled
        self.bands = bands
        self.globalGain = globalGain
        self.preamp = preamp
    }

    /// Ten parametric bands at the seed's frequencies, one octave wide, at 0 dB.
    public static let flatTenBands = tenBandFrequencies.map { EQBand(type: .parametric, frequency: $0) }

    /// Whether the equalizer leaves the signal exactly as it is.
    public var isFlat: Bool { !isEnabled || (globalGain == 0 && preamp == 0 && bands.allSatisfy(\.isFlat)) }
}

#if canImport(Glibc)
    import Glibc
#endif
