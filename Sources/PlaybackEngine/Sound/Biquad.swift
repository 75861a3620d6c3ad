import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// A biquad's normalized coefficients (a0 = 1), from Robert Bristow-Johnson's Audio EQ
/// Cookbook, and its exact magnitude response.
struct BiquadCoefficients: Sendable, Equatable {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0

    static let identity = BiquadCoefficients()

    /// The coefficients of `band` at `sampleRate`. Shelves and the plain low and high passes
    /// ignore the bandwidth, as `AVAudioUnitEQ` does (shelf slope 1; Butterworth Q 1/√2); the
    /// resonant variants, the peaking, band-pass and band-stop filters use it, or the band's Q
    /// when it has one.
    init(_ band: EQBand, sampleRate: Double) {
        let frequency = min(max(band.frequency, 1), sampleRate * 0.49)
        let w0 = 2 * Double.pi * frequency / sampleRate
        let cosw = cos(w0)
        let sinw = sin(w0)
        let a = pow(10, band.gain / 40)
        let bandwidthAlpha = band.q.map { sinw / (2 * $0) } ?? sinw * sinh(log(2) / 2 * band.bandwidth * w0 / sinw)
        let butterworthAlpha = sinw / (2 * 0.5.squareRoot())
        let shelfAlpha = sinw / 2 * 2.0.squareRoot()  // slope S = 1
        let b0, b1, b2, a0, a1, a2: Double
        switch band.type {
        case .lowPass, .resonantLowPass:
            let alpha = band.type == .lowPass ? butterworthAlpha : bandwidthAlpha
            (b0, b1, b2) = ((1 - cosw) / 2, 1 - cosw, (1 - cosw) / 2)
            (a0, a1, a2) = (1 + alpha, -2 * cosw, 1 - alpha)
        case .highPass, .resonantHighPass:
            let alpha = band.type == .highPass ? butterworthAlpha : bandwidthAlpha
            (b0, b1, b2) = ((1 + cosw) / 2, -(1 + cosw), (1 + cosw) / 2)
            (a0, a1, a2) = (1 + alpha, -2 * cosw, 1 - alpha)
        case .bandPass:
            (b0, b1, b2) = (bandwidthAlpha, 0, -bandwidthAlpha)
            (a0, a1, a2) = (1 + bandwidthAlpha, -2 * cosw, 1 - bandwidthAlpha)
        case .bandStop:
            (b0, b1, b2) = (1, -2 * cosw, 1)
            (a0, a1, a2) = (1 + bandwidthAlpha, -2 * cosw, 1 - bandwidthAlpha)
        case .parametric:
            (b0, b1, b2) = (1 + bandwidthAlpha * a, -2 * cosw, 1 - bandwidthAlpha * a)
            (a0, a1, a2) = (1 + bandwidthAlpha / a, -2 * cosw, 1 - bandwidthAlpha / a)
        case .lowShelf, .resonantLowShelf:
            let alpha = band.type == .lowShelf ? shelfAlpha : bandwidthAlpha
            let k = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) - (a - 1) * cosw + k)
            b1 = 2 * a * ((a - 1) - (a + 1) * cosw)
            b2 = a * ((a + 1) - (a - 1) * cosw - k)
            a0 = (a + 1) + (a - 1) * cosw + k
            a1 = -2 * ((a - 1) + (a + 1) * cosw)
            a2 = (a + 1) + (a - 1) * cosw - k
        case .highShelf, .resonantHighShelf:
            let alpha = band.type == .highShelf ? shelfAlpha : bandwidthAlpha
            let k = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) + (a - 1) * cosw + k)
            b1 = -2 * a * ((a - 1) + (a + 1) * cosw)
            b2 = a * ((a + 1) + (a - 1) * cosw - k)
            a0 = (a + 1) - (a - 1) * cosw + k
            a1 = 2 * ((a - 1) - (a + 1) * cosw)
            a2 = (a + 1) - (a - 1) * cosw - k
        }
        self.b0 = b0 / a0
        self.b1 = b1 / a0
        self.b2 = b2 / a0
        self.a1 = a1 / a0
        self.a2 = a2 / a0
    }

    init() {}

    /// |H(e^jw)| at `frequency` for `sampleRate`.
    func magnitude(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let numeratorRe = b0 + b1 * c1 + b2 * c2
        let numeratorIm = -(b1 * s1 + b2 * s2)
        let denominatorRe = 1 + a1 * c1 + a2 * c2
        let denominatorIm = -(a1 * s1 + a2 * s2)
        return
            ((numeratorRe * numeratorRe + numeratorIm * numeratorIm)
            / (denominatorRe * denominatorRe + denominatorIm * denominatorIm)).squareRoot()
    }
}

/// One channel's memory of one biquad (transposed direct form II, 64-bit: stable and quiet
/// down to the 32 Hz band at 48 kHz).
struct BiquadState: Sendable {
    var z1 = 0.0, z2 = 0.0

    @inline(__always)
    mutating func process(_ x: Double, _ c: BiquadCoefficients) -> Double {
        let y = c.b0 * x + z1
        z1 = c.b1 * x - c.a1 * y + z2
        z2 = c.b2 * x - c.a2 * y
        return y
    }
}
