import CSoundKernel

/// Mixes the overlap of a crossfade on the decoder thread: each side widened to 64-bit
/// floating point with its own gain (ReplayGain) and curve (`CrossfadeCurve`), summed, limited
/// so that the sum never passes full scale, and narrowed back with the sound chain's TPDF
/// dither. The output thread then plays the overlap at gain 1, and the sound chain (equalizer,
/// volume) acts on the sum. Mono and stereo only, as the kernels are.
///
/// The limiter: over each block whose sum peaks above full scale the gain drops at once to
/// bring that peak to full scale; it returns to 1 by at most `releasePerBlock` a block, in a
/// straight line, never above what the block needs. Below full scale it does nothing, and the
/// overlap is exactly the documented sum (plus the dither).
final class CrossfadeMixer {
    static let blockFrames = 1024
    static let releasePerBlock = 0.1

    private let outgoingSignal = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: blockFrames)
    private let incomingSignal = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: blockFrames)
    private var dither = playbackd_dither_seeded(0x5851_F42D_4C95_7F2D)
    private var limiterGain = 1.0

    deinit {
        outgoingSignal.deallocate()
        incomingSignal.deallocate()
    }

    /// Mixes `frames` frames of `outgoing` and `incoming` (`channels` interleaved samples
    /// each), the frames from `first` of an overlap of `overlap` frames, into `output` (which
    /// may be `outgoing`). An overlap is mixed in order, in as many calls as it takes.
    func mix<Sample: PCMSample>(
        outgoing: UnsafePointer<Sample>, gain outgoingGain: Double, incoming: UnsafePointer<Sample>,
        gain incomingGain: Double, frames: Int, at first: Int, of overlap: Int, channels: Int,
        into output: UnsafeMutablePointer<Sample>
    ) {
        precondition(channels == 1 || channels == 2)
        var done = 0
        while done < frames {
            let count = min(Self.blockFrames, frames - done)
            let offset = done * channels
            wide(outgoingSignal) { Sample.widen(outgoing + offset, frames: count, channels: channels, into: $0) }
            wide(incomingSignal) { Sample.widen(incoming + offset, frames: count, channels: channels, into: $0) }
            var peak = 0.0
            for frame in 0..<count {
                let (out, into) = CrossfadeCurve.gains(atFrame: first + done + frame, of: overlap)
                let sum = outgoingSignal[frame] * (out * outgoingGain) + incomingSignal[frame] * (into * incomingGain)
                outgoingSignal[frame] = sum
                peak = max(peak, abs(sum.x), abs(sum.y))
            }
            limit(count: count, peak: peak)
            wide(outgoingSignal) {
                Sample.narrow($0, frames: count, channels: channels, dither: &dither, into: output + offset)
            }
            done += count
        }
    }

    /// Applies the limiter to the block just summed (`count` frames peaking at `peak`).
    private func limit(count: Int, peak: Double) {
        let needed = peak > 1 ? 1 / peak : 1
        if needed <= limiterGain {
            limiterGain = needed
            guard needed < 1 else { return }
            for frame in 0..<count { outgoingSignal[frame] *= needed }
            return
        }
        let target = min(needed, limiterGain + Self.releasePerBlock)
        let start = limiterGain
        for frame in 0..<count {
            outgoingSignal[frame] *= start + (target - start) * Double(frame + 1) / Double(count)
        }
        limiterGain = target
    }

    private func wide(_ signal: UnsafeMutablePointer<SIMD2<Double>>, _ body: (UnsafeMutablePointer<Double>) -> Void) {
        signal.withMemoryRebound(to: Double.self, capacity: Self.blockFrames * 2, body)
    }
}
