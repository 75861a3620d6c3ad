import Testing

@testable import PlaybackEngine

@Suite struct StartDetectorTests {
    @Test("a device without delay plays at once")
    func noDelay() {
        var detector = StartDetector(sampleRate: 44_100)
        do { let playing = detector.isPlaying(playedFrames: 0, delayFrames: 0, nanos: 0); #expect(!playing) }
        do { let playing = detector.isPlaying(playedFrames: 10, delayFrames: 0, nanos: 1); #expect(playing) }
    }

    @Test("a small jump then a stall is not a start; two windows of steady progress are")
    func pulseLikeStart() {
        var detector = StartDetector(sampleRate: 44_100)
        let ms: UInt64 = 1_000_000
        let readings: [(played: Int, nanos: UInt64, playing: Bool)] = [
            (300, 6 * ms, false),  // first reading: the reference
            (300, 7 * ms, false),  // too close to judge
            (300, 1_412 * ms, false),  // a stall
            (4_450, 1_512 * ms, false),  // one window of progress is not yet proof
            (8_860, 1_612 * ms, true),  // two are
        ]
        for reading in readings {
            let playing = detector.isPlaying(playedFrames: reading.played, delayFrames: 22_000, nanos: reading.nanos)
            #expect(playing == reading.playing, "at \(reading.nanos / ms) ms")
        }
    }
}
