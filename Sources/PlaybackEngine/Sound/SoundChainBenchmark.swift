import CSoundKernel

#if canImport(Glibc)
    import Glibc
#endif

/// The sound chain's own cost, measured in the calling thread for `Scripts/bench`; not part of
/// the engine's interface (SPI `Benchmark`).
@_spi(Benchmark) public enum SoundChainBenchmark {
    /// The implementations of the chain's inner loops that this processor runs, by name.
    public static var kernels: [String] {
        playbackd_sound_kernel_best() == PLAYBACKD_SOUND_KERNEL_AVX2 ? ["portable", "avx2"] : ["portable"]
    }

    /// The calling thread's CPU seconds to process one minute of 44.1 kHz stereo noise through
    /// the chain with `settings` and an item gain of `itemGain`, `blockFrames` frames a call,
    /// with `kernel` (one of `kernels`); the least of `runs` runs (noise only adds). The
    /// kernel chosen for the daemon is selected again after.
    public static func cpuSecondsPerAudioMinute(
        settings: SoundSettings, itemGain: Double = 1, kernel: String, blockFrames: Int, runs: Int = 5
    ) -> Double {
        let sampleRate = 44_100
        let control = SoundControl()
        control.set(settings)
        var parameters = SoundParameters()
        _ = control.read(ifNewerThan: .max, into: &parameters)
        parameters.itemGain = itemGain
        playbackd_sound_kernel_select(kernel == "avx2" ? PLAYBACKD_SOUND_KERNEL_AVX2 : PLAYBACKD_SOUND_KERNEL_PORTABLE)
        defer { playbackd_sound_kernel_select(playbackd_sound_kernel_best()) }
        var chain = SoundChain(channels: 2, sampleRate: sampleRate, scratch: SoundScratch(frames: blockFrames))
        chain.start(with: parameters)
        var state: UInt32 = 0x1234_5678
        let input = (0..<blockFrames * 2).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return Int16(truncatingIfNeeded: state) / 4
        }
        var output = [Int16](repeating: 0, count: blockFrames * 2)
        var best = Double.infinity
        for _ in 0..<runs {
            let start = threadCPUSeconds()
            var frames = 0
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    while frames < sampleRate * 60 {
                        chain.process(source, into: target)
                        frames += blockFrames
                    }
                }
            }
            best = min(best, threadCPUSeconds() - start)
        }
        return best
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
