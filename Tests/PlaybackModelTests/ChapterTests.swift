import PlaybackModel
import Testing

@Suite struct ChapterTests {
    @Test("chapters as tags give them become a sorted list that tiles the item, each one titled")
    func normalized() {
        let found: [(start: Double, title: String?)] = [
            (9, "Past the end"), (2, "Overlaps"), (0, ""), (60, "After the end"), (2, "Same start"), (.nan, "Broken"),
            (-1, "Before"), (5, " \u{0}Trimmed "),
        ]
        let chapters = Chapter.normalized(found, duration: 12)
        #expect(chapters.map(\.start) == [0, 2, 5, 9])
        #expect(chapters.map(\.end) == [2, 5, 9, 12])
        #expect(chapters.map(\.title) == ["Chapter 1", "Overlaps", "Trimmed", "Past the end"])
        #expect(Chapter.normalized([], duration: 12).isEmpty)
        let many = (0..<1500).map { (start: Double($0), title: String?.none) }
        #expect(Chapter.normalized(many, duration: 2000).count == Chapter.maximumCount)
    }

    @Test("the chapter at a position: the last one started, or the first before it starts")
    func index() {
        let chapters = Chapter.normalized([(1, "a"), (3.5, "b"), (7.25, "c")], duration: 10)
        #expect(chapters.index(at: 0) == 0)
        #expect(chapters.index(at: 3.4999) == 0)
        #expect(chapters.index(at: 3.5) == 1)
        #expect(chapters.index(at: 9.9) == 2)
        #expect([Chapter]().index(at: 1) == nil)
        let current = CurrentChapter(chapters, at: 8)
        #expect(current == CurrentChapter(number: 2, count: 3, title: "c", start: 7.25, end: 10))
    }

    @Test("the time left on a sleep timer: to its time, or to the end of the item or chapter at the rate")
    func sleepRemaining() {
        let item = QueueItem(
            id: 1, path: "/a.mp3", metadata: TrackMetadata(title: "a", duration: 100, sampleRate: 44_100, channels: 2))
        var snapshot = NowPlaying(
            state: .playing, item: item, elapsed: 10, rate: 2, timestamp: 1000, queueIndex: 0, queueCount: 1,
            defaultRate: 2)
        #expect(snapshot.sleepRemaining(at: 1000) == nil)
        snapshot.sleepTimer = .at(1030)
        #expect(snapshot.sleepRemaining(at: 1010) == 20)
        #expect(snapshot.sleepRemaining(at: 2000) == 0)
        snapshot.sleepTimer = .endOfItem
        #expect(snapshot.sleepRemaining(at: 1005) == 40, "80 media seconds left at 2x")
        snapshot.sleepTimer = .endOfChapter
        #expect(snapshot.sleepRemaining(at: 1000) == nil, "no chapters")
        snapshot.chapter = CurrentChapter(number: 0, count: 2, title: "x", start: 0, end: 30)
        #expect(snapshot.sleepRemaining(at: 1000) == 10)
    }
}
