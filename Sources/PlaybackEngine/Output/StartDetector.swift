/// Decides, from the output thread's clock readings, when the device has really started
/// playing. Devices can report a little progress at once and then stall while they start
/// (PulseAudio's null sink reports 7 ms played, then nothing for over a second, and its first
/// readings after the start run ahead), so a single increment is no proof: two consecutive
/// windows of at least `minimumWindow` must each show progress of at least half real time. A device with no delay at all (the null and file PCMs) plays what
/// it is given immediately.
///
/// A value type owned by the output thread; no allocation, no locks.
struct StartDetector {
    static let minimumWindowNanos: UInt64 = 20_000_000

    let sampleRate: Int
    private var referenceFrames = -1
    private var referenceNanos: UInt64 = 0
    private var confirmedWindows = 0
    static let requiredWindows = 2

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
        let advanced = (playedFrames - referenceFrames) * 2 >= realTimeFrames
        confirmedWindows = advanced ? confirmedWindows + 1 : 0
        referenceFrames = playedFrames
        referenceNanos = nanos
        return confirmedWindows >= Self.requiredWindows
    }
}
