import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// libvorbisfile and libopusfile behind `AudioDecoder`: every sample as `oggdec` and
/// `opusdec --rate 48000 --no-dither` write it (within 1 LSB, as the two reference decoders
/// round floats themselves), exact lengths and seeks, tags, covers and R128 gains.
@Suite struct OggDecoderTests {
    @Test(
        "six channels in Vorbis and Opus come out in WAVE order: each channel's tone where the WAV had it",
        arguments: ["surround.ogg", "surround.opus"])
    func surroundOrder(file: String) throws {
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        #expect(decoder.format.channels == 6)
        let samples = try Fixtures.decodeAll(decoder).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let seconds = Double(samples.count / 6) / 48_000
        // Each channel's frequency from its sign changes over the item.
        let frequencies = (0..<6).map { channel in
            let signal = stride(from: channel, to: samples.count, by: 6).map { samples[$0] }
            return Double(zip(signal, signal.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count) / 2 / seconds
        }
        for (channel, expected) in [300.0, 400, 500, 60, 700, 800].enumerated() {
            #expect(abs(frequencies[channel] - expected) < expected * 0.05, "channel \(channel): \(frequencies)")
        }
    }

    static let formats: [(prefix: String, ext: String)] = [("vorbis", "ogg"), ("opus", "opus")]

    @Test("each item decodes as its reference decoder does, and exactly as long as its source", arguments: formats)
    func decodesAsReference(prefix: String, ext: String) throws {
        for name in ["one", "two", "three", "long"] {
            let decoder = try AudioFileFormat.open(Fixtures.path("\(prefix)-\(name).\(ext)"))
            let reference = try Fixtures.reference("\(prefix)-\(name)")
            let decoded = try Fixtures.decodeAll(decoder)
            let difference = Fixtures.largestDifference(decoded, reference)
            #expect(
                difference != nil && difference! <= 1,
                "\(prefix)-\(name): \(decoded.count) vs \(reference.count) bytes, \(difference ?? -1) LSB")
            #expect(decoder.frameCount.map { $0 * decoder.format.channels * 2 } == reference.count)
        }
    }

    @Test("Opus at 48 kHz: the three items laid end to end are the length of the signal cut into them")
    func opusItemsAreTheSignal() throws {
        let frames = try ["one", "two", "three"].map {
            try #require(try AudioFileFormat.open(Fixtures.path("opus-\($0).opus")).frameCount)
        }
        #expect(frames == [113_761, 149_329, 92_590], "pre-skip and end trimming give each its source's length")
        let signal = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("opus-signal.raw")))
        #expect(frames.reduce(0, +) * 4 == signal.count)
    }

    @Test("a seek lands on the sample asked for, forward and back on one decoder", arguments: formats)
    func seekIsExact(prefix: String, ext: String) throws {
        let reference = try Fixtures.reference("\(prefix)-long")
        let frames = reference.count / 4
        let decoder = try AudioFileFormat.open(Fixtures.path("\(prefix)-long.\(ext)"))
        let frameList = [frames / 2 + 3, 1, 959, 960, 961, 319_725, frames - 1_000, 0]
        for seek in try Fixtures.seeks(decoder, frameList, reference: reference, block: 4_000) {
            #expect(seek.landed == seek.frame)
            #expect(
                seek.count > 0 && seek.difference != nil && seek.difference! <= 1,
                "frame \(seek.frame): \(seek.difference ?? -1) LSB")
        }
    }

    @Test("Vorbis comments and the front METADATA_BLOCK_PICTURE, as vorbiscomment wrote them")
    func vorbisTags() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("vorbis-tags.ogg"), readsPictures: true)
        #expect(decoder is VorbisDecoder)
        let tags = decoder.metadata
        #expect(tags.title == "日本語 ✓ Ünïcode" && tags.artist == "Артист" && tags.album == "Vorbis")
        #expect(tags.albumArtist == "Band ♪" && tags.composer == "Ω" && tags.genre == "Jazz" && tags.year == 2010)
        #expect(tags.trackNumber == 3 && tags.trackCount == 12 && tags.discNumber == 2 && tags.discCount == 2)
        #expect(tags.replayGainTrackGain == -7.5 && tags.replayGainTrackPeak == 0.5)
        let cover = try #require(decoder.coverPicture())
        #expect(cover.mimeType == "image/jpeg")
        #expect(cover.data == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("front.jpg")))))
    }

    @Test("Opus tags: R128 gains as ReplayGain gains (+5 dB), a 1 MiB front cover, 48 kHz whatever the input")
    func opusTags() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("opus-tags.opus"), readsPictures: true)
        #expect(decoder is OpusDecoder)
        let tags = decoder.metadata
        #expect(tags.title == "Opus tags" && tags.artist == "Ogg Artist" && tags.trackNumber == 4)
        #expect(tags.replayGainTrackGain == -5 && tags.replayGainAlbumGain == 6)
        #expect(tags.sampleRate == 48_000 && decoder.format.sampleRate == 48_000)
        #expect(decoder.frameCount == 72_000, "1.5 s of a 44.1 kHz source, at 48 kHz")
        let cover = try #require(decoder.coverPicture())
        let big = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("big.jpg"))))
        #expect(big.count > 1 << 20 && cover.data == big && cover.mimeType == "image/jpeg")
    }

    @Test("refused with the reason: random bytes named .ogg and .opus")
    func refusals() throws {
        #expect(throws: DecoderError.notOggVorbis("no stream of this format")) {
            try AudioFileFormat.open(Fixtures.path("garbage.ogg"))
        }
        #expect(throws: DecoderError.notOpus("no stream of this format")) {
            try AudioFileFormat.open(Fixtures.path("garbage.opus"))
        }
    }

    @Test("a page missing: decoding goes on after the hole to the end", arguments: formats)
    func missingPage(prefix: String, ext: String) throws {
        let reference = try Fixtures.reference("\(prefix)-long")
        let decoded = try Fixtures.decodeAll(AudioFileFormat.open(Fixtures.path("\(prefix)-long-missing-page.\(ext)")))
        #expect(decoded.count < reference.count && decoded.count > reference.count * 9 / 10)
        let tail = 44_100 * 4
        let difference = Fixtures.largestDifference(decoded.suffix(tail), reference.suffix(tail))
        #expect(difference != nil && difference! <= 1, "the last second after the hole: \(difference ?? -1) LSB")
    }
}
