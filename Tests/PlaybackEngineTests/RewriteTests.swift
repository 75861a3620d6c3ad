import PlaybackModel
import Testing

@testable import PlaybackEngine

/// What a device that can replace its buffer needs from the engine: a ring that keeps played
/// samples to hand out again, and a history of the chain that reproduces what was written.
@Suite struct RewriteTests {
    @Test("a ring with a reserve never fills the reserve, and samples stepped back over come out again unchanged")
    func ringReserve() {
        let ring = SampleRing<Int16>(capacity: 8, reserve: 4)
        #expect(ring.capacity == 16)
        let written = [Int16](0..<20).withUnsafeBufferPointer { ring.copy($0) }
        #expect(written == 12, "capacity minus the reserve")
        ring.consume(10)
        #expect(ring.writableCount == 10)
        _ = [Int16](20..<30).withUnsafeBufferPointer { ring.copy($0) }
        #expect(ring.writableCount == 0)
        ring.unconsume(4)
        #expect(ring.totalRead == 6)
        #expect(ring.writableCount == 0, "never negative while more than capacity - reserve is unread")
        var out: [Int16] = []
        while ring.readableCount > 0 {
            let region = ring.readableRegion()
            out += region
            ring.consume(region.count)
        }
        #expect(
            out == [Int16](6..<12) + [Int16](20..<30), "the four samples stepped back over, then the rest, in order")
    }

    @Test("restoring the chain noted before a block and processing again gives what was written, bit for bit")
    func historyReproducesOutput() throws {
        let input = SoundChainTests.sine(997, sampleRate: 44100, seconds: 1, amplitude: 0.4)
        let scratch = SoundScratch(frames: 1 << 12)
        var chain = SoundChain(channels: 2, sampleRate: 44100, scratch: scratch)
        let bands = [
            EQBand(type: .lowShelf, frequency: 100, gain: 6), EQBand(type: .parametric, frequency: 1000, gain: -5),
        ]
        chain.start(with: SoundChainTests.parameters(Equalizer(isEnabled: true, bands: bands), volume: 0.7))
        let history = RewriteHistory(capacity: 8, chain: chain)
        let block = 1024 * 2
        var written: [Int16] = []
        var position = 0
        while position < input.count {
            history.record(position: position, chain: chain, fadedIn: position)
            let end = min(position + block, input.count)
            written += SoundChainTests.run(&chain, Array(input[position..<end]))
            position = end
        }
        let blocks = (input.count + block - 1) / block
        #expect(history.entry(atOrAfter: 0, before: input.count)?.position == (blocks - 8) * block, "the oldest kept")
        let entry = try #require(history.entry(atOrAfter: 38 * block + 1, before: input.count))
        #expect(entry.position == 39 * block && entry.fadedIn == 39 * block)
        var restored = entry.chain
        var again: [Int16] = []
        for start in stride(from: entry.position, to: input.count, by: block) {
            again += SoundChainTests.run(&restored, Array(input[start..<min(start + block, input.count)]))
        }
        let differing = zip(again, written[entry.position...]).filter { $0 != $1 }.count
        #expect(again.count == input.count - entry.position && differing == 0, "\(differing) samples differ")
        #expect(history.entry(atOrAfter: 38 * block + 1, before: 39 * block) == nil, "none before the limit")
        history.forget(from: entry.position)
        #expect(history.entry(atOrAfter: entry.position, before: input.count) == nil, "forgotten")
        #expect(history.entry(atOrAfter: 0, before: input.count)?.position == (blocks - 8) * block)
        history.record(position: 50 * block, chain: chain, fadedIn: 0)
        history.record(position: 50 * block, chain: chain, fadedIn: 1)
        #expect(history.entry(atOrAfter: 50 * block, before: .max)?.fadedIn == 1, "a repeated start replaces")
    }
}
