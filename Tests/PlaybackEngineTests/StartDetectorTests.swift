import Testing

@testable import PlaybackEngine

@Suite struct StartDetectorTests {
    @Test("a device without delay plays at once")
    func noDelay() {
        var detector = StartDetector(sampleRate: 44_100)
        do { let playing = detector.isPlaying(playedFrames: 0, delayFrames: 0, nanos: 0); #expect(!playing) }
        do { let playing = detector.isPlaying(playedFrames: 10, delayFrames: 0, nanos: 1); #expect(playing) }
    }

    @Test("a small jump then a stall is not a start; steady progress is")
    func pulseLikeStart() {
        var detector = StartDetector(sampleRate: 44_100)
        let ms: UInt64 = 1_000_000
        do {
            let playing = detector.isPlaying(playedFrames: 300, delayFrames: 17_000, nanos: 6 * ms); #expect(!playing)
        }
        do {
            let playing = detector.isPlaying(playedFrames: 300, delayFrames: 17_000, nanos: 7 * ms); #expect(!playing)
        }
        do {
            let playing = detector.isPlaying(playedFrames: 300, delayFrames: 21_000, nanos: 1_412 * ms);
            #expect(!playing)
        }
        do {
            let playing = detector.isPlaying(playedFrames: 4_450, delayFrames: 22_000, nanos: 1_512 * ms);
            #expect(playing)
        }
    }
}
