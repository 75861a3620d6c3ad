import ControlCLI
import ControlProtocol
import PlaybackModel
import Testing

@Suite struct TickScheduleTests {
    @Test("the next tick is when the extrapolated position crosses its next whole second")
    func boundary() throws {
        let snapshot = Snapshots.nowPlaying(elapsed: 83.4, timestamp: 1000)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1000)) - 1000.6) < 1e-9)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1000.6)) - 1001.6) < 1e-9)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1003.1)) - 1003.6) < 1e-9)
    }

    @Test("no tick while paused, stopped, not yet advancing, or past the last whole second")
    func noTick() {
        func snapshot(_ state: PlaybackState, rate: Double, elapsed: Double = 10) -> NowPlaying {
            let item = QueueItem(
                id: 1, path: "/t.mp3",
                metadata: TrackMetadata(title: "t", duration: 19.8, sampleRate: 44_100, channels: 2))
            return NowPlaying(
                state: state, item: item, elapsed: elapsed, rate: rate, timestamp: 0, queueIndex: 0, queueCount: 1)
        }
        #expect(TickSchedule.nextBoundary(snapshot(.paused, rate: 0), after: 1) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 0), after: 1) == nil)
        #expect(TickSchedule.nextBoundary(Snapshots.stoppedNowPlaying, after: 1) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 19.5), after: 0) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 18.5), after: 0) == 0.5)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 18.5), after: 0.6) == nil)
    }
}
