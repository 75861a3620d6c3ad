import Testing

@testable import PlaybackEngine

/// The overlap's arithmetic (`CrossfadeMixer`, `CrossfadeCurve`) and the silence bounds,
/// without a daemon.
struct CrossfadeMixerTests {
    @Test("The curves keep power: the gains' squares sum to 1, from the outgoing item alone")
    func curvesKeepPower() {
        for frame in stride(from: 0, to: 1000, by: 7) {
            let (out, into) = CrossfadeCurve.gains(atFrame: frame, of: 1000)
            #expect(abs(out * out + into * into - 1) < 1e-12)
        }
        #expect(CrossfadeCurve.gains(atFrame: 0, of: 10) == (1, 0))
    }

    @Test("Two full-scale signals in phase never clip: the limiter takes the peak to full scale")
    func sumNeverClips() {
        let frames = 8192
        let loud = [Int16](repeating: 30_000, count: frames * 2)
        var output = [Int16](repeating: 0, count: frames * 2)
        let mixer = CrossfadeMixer()
        loud.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                mixer.mix(
                    outgoing: source.baseAddress!, gain: 1, incoming: source.baseAddress!, gain: 1, frames: frames,
                    at: 0, of: frames, channels: 2, into: target.baseAddress!)
            }
        }
        // Unlimited, the middle would be 30,000 * 1.414 = 42,426: beyond 16 bits.
        let peak = output.map { abs(Int($0)) }.max()!
        #expect(peak <= 32_768 && peak > 32_000, "peak \(peak)")
        let middle = Int(output[frames])
        #expect(middle > 32_000, "the middle is held at full scale, not cut to silence: \(middle)")
    }

    @Test("Below full scale the mix is the documented sum, each side at its own gain")
    func sumBelowFullScale() {
        let frames = 4096
        let a = (0..<frames * 2).map { Int16(truncatingIfNeeded: ($0 * 37) % 20_000 - 10_000) }
        let b = (0..<frames * 2).map { Int16(truncatingIfNeeded: ($0 * 53) % 16_000 - 8_000) }
        var output = [Int16](repeating: 0, count: frames * 2)
        let mixer = CrossfadeMixer()
        a.withUnsafeBufferPointer { outgoing in
            b.withUnsafeBufferPointer { incoming in
                output.withUnsafeMutableBufferPointer { target in
                    mixer.mix(
                        outgoing: outgoing.baseAddress!, gain: 0.5, incoming: incoming.baseAddress!, gain: 1.25,
                        frames: frames, at: 0, of: frames, channels: 2, into: target.baseAddress!)
                }
            }
        }
        var worst = 0
        for index in 0..<frames * 2 {
            let (out, into) = CrossfadeCurve.gains(atFrame: index / 2, of: frames)
            let expected = Double(a[index]) * 0.5 * out + Double(b[index]) * 1.25 * into
            worst = max(worst, abs(Int(output[index]) - Int(expected.rounded())))
        }
        #expect(worst <= 2, "worst \(worst) LSB")
    }

    @Test("Sound ends at the last window above -60 dBFS and starts at the first")
    func silenceBounds() {
        let rate = 1000  // 10-frame windows
        var samples = [Int16](repeating: 0, count: 200)
        for index in 35..<142 { samples[index] = index % 2 == 0 ? 3000 : -3000 }
        samples[180] = 1  // far below -60 dBFS: silence
        samples.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            #expect(SilenceBounds.soundEnd(base, frames: 200, channels: 1, sampleRate: rate) == 150)
            #expect(SilenceBounds.soundStart(base, frames: 200, channels: 1, sampleRate: rate) == 30)
            #expect(SilenceBounds.soundEnd(base, frames: 30, channels: 1, sampleRate: rate) == 0)
            #expect(SilenceBounds.soundStart(base, frames: 30, channels: 1, sampleRate: rate) == 30)
        }
    }
}
