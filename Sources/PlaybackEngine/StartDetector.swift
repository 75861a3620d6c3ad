/// Decides, from the output thread's clock readings, when the device has really started
/// playing. Devices can report a little progress at once and then stall while they start
/// (PulseAudio's null sink reports 7 ms played, then nothing for over a second), so a single
/// increment is no proof: two readings at least `minimumWindow` apart must show progress of
/// at least half real time. A device with no delay at all (the null and file PCMs) plays what
/// it is given immediately.
///
/// A value type owned by the output thread; no allocation, no locks.
struct StartDetector {
    static let minimumWindowNanos: UInt64 = 20_000_000

    let sampleRate: Int
    private var referenceFrames = -1
    private var referenceNanos: UInt64 = 0

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Feeds one reading; true once the device is known to be playing.
    mutating func isPlaying(playedFrames: Int, delayFrames: Int, nanos: UInt64) -> Bool {
        if delayFrames == 0 { return playedFrames > 0 }
        guard referenceFrames >= 0 else {
            referenceFrames = playedFrames
            referenceNanos = nanos
            return false
        }
        let window = nanos &- referenceNanos
        guard window >= Self.minimumWindowNanos else { return false }
        let realTimeFrames = Int(window) * sampleRate / 1_000_000_000
        if (playedFrames - referenceFrames) * 2 >= realTimeFrames { return true }
        referenceFrames = playedFrames
        referenceNanos = nanos
        return false
    }
}
