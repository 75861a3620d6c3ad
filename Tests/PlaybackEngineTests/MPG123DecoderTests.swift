import Foundation
import PlaybackEngine
import Testing

@Suite struct MPG123DecoderTests {
    private func decodeAll(_ decoder: MPG123Decoder) throws -> Data { try Fixtures.decodeAll(decoder) }

    @Test("gapless decoding equals mpg123 --gapless -s; the length is exact")
    func gaplessDecodeMatchesReference() throws {
        for name in ["one", "two", "three", "mono48"] {
            let decoder = try MPG123Decoder(path: Fixtures.path(name + ".mp3"))
            let reference = try Fixtures.reference(name)
            #expect(try decodeAll(decoder) == reference, "\(name)")
            #expect(decoder.frameCount.map { $0 * decoder.format.channels * 2 } == reference.count)
        }
    }

    @Test(
        "seeking lands exactly and decodes the reference samples from there, without a full-file scan",
        arguments: ["long", "vbr"])
    func seekIsExact(name: String) throws {
        let reference = try Fixtures.reference(name)
        let frames = reference.count / 4
        for frame in [1, 1151, 1152, 44_100, frames / 2 + 3, frames - 1_000] {
            let decoder = try MPG123Decoder(path: Fixtures.path(name + ".mp3"))
            #expect(try decoder.seek(toFrame: frame) == frame)
            #expect(try decodeAll(decoder) == reference.subdata(in: frame * 4..<reference.count), "frame \(frame)")
        }
    }

    @Test(
        "one decoder seeking back and forth (the frame index half built) lands exactly every time",
        arguments: ["long", "vbr"])
    func seeksBackAndForth(name: String) throws {
        let reference = try Fixtures.reference(name)
        let frames = reference.count / 4
        let decoder = try MPG123Decoder(path: Fixtures.path(name + ".mp3"))
        var buffer = [Int16](repeating: 0, count: 8192)
        for frame in [frames * 3 / 4, 1_000, frames / 2 + 577, frames - 5_000, 0, frames / 3] {
            #expect(try decoder.seek(toFrame: frame) == frame)
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            let decoded = buffer.withUnsafeBytes { Data($0.prefix(count * 2)) }
            #expect(count > 0)
            #expect(decoded == reference.subdata(in: frame * 4..<(frame * 4 + count * 2)), "frame \(frame)")
        }
    }

    @Test("tags, format and the file-name fallback")
    func metadata() throws {
        let tagged = try MPG123Decoder(path: Fixtures.path("two.mp3"))
        #expect(tagged.metadata.title == "Two")
        #expect(tagged.metadata.artist == "Fixture Artist")
        #expect(tagged.metadata.album == "Fixture Album")
        #expect(tagged.format == AudioFormat(sampleRate: 44_100, channels: 2))
        let mono = try MPG123Decoder(path: Fixtures.path("mono48.mp3"))
        #expect(mono.format == AudioFormat(sampleRate: 48_000, channels: 1))
        #expect(try MPG123Decoder(path: Fixtures.path("untagged name.mp3")).metadata.title == "untagged name")
    }

    @Test("bad files are typed errors")
    func badFiles() {
        #expect(throws: DecoderError.fileNotFound) { try MPG123Decoder(path: "/nonexistent.mp3") }
        #expect(throws: DecoderError.notAFile) { try MPG123Decoder(path: "/tmp") }
        #expect(throws: DecoderError.notMPEGAudio("empty file")) { try MPG123Decoder(path: Fixtures.path("empty.mp3")) }
        #expect(throws: DecoderError.notMPEGAudio("no MPEG audio frame found")) {
            try MPG123Decoder(path: Fixtures.path("not-audio.mp3"))
        }
    }
}
