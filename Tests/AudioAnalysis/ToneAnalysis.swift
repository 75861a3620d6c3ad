#if canImport(Glibc)
    import Glibc
#endif

/// Measurements of captured audio that the engine's and the daemon's tests share.
public enum ToneAnalysis {
    /// Amplitude of `frequency` in one channel of stereo `samples[from...]`, over a whole number
    /// of periods (a single-bin DFT).
    public static func amplitude(
        _ samples: [Int16], _ frequency: Double, sampleRate: Int, from: Int, channel: Int = 0
    ) -> Double {
        let available = samples.count / 2 - from
        let periods = (Double(available) * frequency / Double(sampleRate)).rounded(.down)
        let count = Int((periods * Double(sampleRate) / frequency).rounded())
        var re = 0.0
        var im = 0.0
        for n in 0..<count {
            let phase = 2 * Double.pi * frequency * Double(from + n) / Double(sampleRate)
            let value = Double(samples[(from + n) * 2 + channel])
            re += value * cos(phase)
            im += value * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(count)
    }

    /// The gain in dB of `frequency` in `channel` from `input` to `output` (both stereo, from
    /// frame `from`).
    public static func gainDB(
        from input: [Int16], to output: [Int16], _ frequency: Double, sampleRate: Int, from: Int, channel: Int
    ) -> Double {
        20
            * log10(
                amplitude(output, frequency, sampleRate: sampleRate, from: from, channel: channel)
                    / amplitude(input, frequency, sampleRate: sampleRate, from: from, channel: channel))
    }

    /// RMS level of `samples[range]` in dB relative to full scale.
    public static func rmsDB(_ samples: [Int16], _ range: Range<Int>) -> Double {
        let sum = samples[range].reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(sum / Double(range.count) / (32768.0 * 32768.0))
    }

    /// The power of one channel of stereo `samples` in each octave band around `centres`
    /// ([f/√2, f·√2)), from Hann-windowed FFTs of `size` (a power of two) averaged over the
    /// whole signal, half overlapping.
    public static func octaveBandPowers(
        _ samples: [Int16], channel: Int, sampleRate: Int, centres: [Double], size: Int = 16_384
    ) -> [Double] {
        let frames = samples.count / 2
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        var power = [Double](repeating: 0, count: size / 2)
        var start = 0
        while start + size <= frames {
            var re = (0..<size).map { Double(samples[(start + $0) * 2 + channel]) * window[$0] }
            var im = [Double](repeating: 0, count: size)
            fft(&re, &im)
            for bin in 0..<(size / 2) { power[bin] += re[bin] * re[bin] + im[bin] * im[bin] }
            start += size / 2
        }
        let binWidth = Double(sampleRate) / Double(size)
        return centres.map { centre in
            let low = Int((centre / 2.0.squareRoot() / binWidth).rounded(.up))
            let high = min(size / 2, Int((centre * 2.0.squareRoot() / binWidth).rounded(.up)))
            return power[max(1, low)..<max(max(1, low), high)].reduce(0, +)
        }
    }

    /// In-place radix-2 FFT.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<(length / 2) {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    (re[b], im[b]) = (re[a] - tr, im[a] - ti)
                    (re[a], im[a]) = (re[a] + tr, im[a] + ti)
                }
            }
            length <<= 1
        }
    }
}
