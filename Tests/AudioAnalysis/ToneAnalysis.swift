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
}
