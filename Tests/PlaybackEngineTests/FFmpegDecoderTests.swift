import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// FFmpeg behind `AudioDecoder` for AAC and ALAC in MP4, WAV and AIFF: AAC within 1 LSB of
/// `ffmpeg -f s16le` and exactly as long as its source (the edit list's length, not FFmpeg's
/// command line's), the lossless ones bit for bit, exact seeks, tags and covers.
@Suite struct FFmpegDecoderTests {
    static let files: [(file: String, tolerance: Int)] = [
        ("aac-one.m4a", 1), ("aac-two.m4a", 1), ("aac-three.m4a", 1), ("aac-long.m4a", 1), ("alac-one.m4a", 0),
        ("wave-one.wav", 0), ("aiff-two.aiff", 0),
    ]

    @Test("each file decodes as its reference, exactly as long as its source", arguments: files)
    func decodesAsReference(file: String, tolerance: Int) throws {
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        #expect(decoder is FFmpegDecoder)
        let reference = try Fixtures.reference(String(file.prefix { $0 != "." }))
        let decoded = try Fixtures.decodeAll(decoder)
        let difference = Fixtures.largestDifference(decoded, reference)
        #expect(
            difference.map { $0 <= tolerance } == true,
            "\(decoded.count) vs \(reference.count) bytes, \(difference ?? -1) LSB")
        #expect(decoder.frameCount.map { $0 * 4 } == reference.count)
    }

    @Test(
        "a seek lands on the sample asked for, forward and back on one decoder",
        arguments: ["aac-long.m4a", "wave-one.wav"])
    func seekIsExact(file: String) throws {
        let reference = try Fixtures.reference(String(file.prefix { $0 != "." }))
        let frames = reference.count / 4
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        let frameList = [frames / 2 + 3, 1, 1023, 1024, 1025, 319_725, frames - 1_000, 0].filter { $0 < frames }
        for seek in try Fixtures.seeks(decoder, frameList, reference: reference, block: 4_000) {
            #expect(seek.landed == seek.frame)
            #expect(
                seek.count > 0 && seek.difference.map { $0 <= 1 } == true,
                "frame \(seek.frame): \(seek.difference ?? -1) LSB")
        }
    }

    @Test("MP4 atoms: tags, the iTunes ReplayGain atom, the cover")
    func tags() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("aac-tags.m4a"), readsPictures: true)
        let tags = decoder.metadata
        #expect(tags.title == "日本語 ✓ Ünïcode" && tags.artist == "Артист" && tags.album == "MP4")
        #expect(tags.albumArtist == "Band ♪" && tags.composer == "Ω" && tags.genre == "Jazz" && tags.year == 2010)
        #expect(tags.trackNumber == 3 && tags.trackCount == 12 && tags.discNumber == 2 && tags.discCount == 2)
        #expect(tags.replayGainTrackGain == -4.25)
        #expect(tags.duration == 1.5)
        let cover = try #require(decoder.coverPicture())
        #expect(cover.mimeType == "image/jpeg")
        #expect(cover.data == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("front.jpg")))))
    }

    @Test(
        "24-bit ALAC and WAV, 32-bit float WAV: 32-bit samples as ffmpeg -f s32le writes them",
        arguments: [("alac-24bit.m4a", 96_000, 2), ("wave-24bit.wav", 48_000, 2), ("wave-float.wav", 44_100, 1)])
    func wideSamples(file: String, rate: Int, channels: Int) throws {
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        #expect(decoder.format == AudioFormat(sampleRate: rate, channels: channels, sampleFormat: .s32))
        let reference = try Fixtures.wideReference(file.prefix { $0 != "." } + ".ref32.raw", bytes: 4)
        #expect(try Fixtures.decodeAllWide(decoder) == reference)
        #expect(decoder.frameCount.map { $0 * channels } == reference.count)
        let frame = rate / 2 + 11
        #expect(try decoder.seek(toFrame: frame) == frame)
        #expect(try Fixtures.decodeAllWide(decoder) == Array(reference[(frame * channels)...]))
    }

    @Test("refused with the reason: random bytes named .m4a")
    func refusals() throws {
        #expect(throws: DecoderError.self) { try AudioFileFormat.open(Fixtures.path("garbage.m4a")) }
        do {
            _ = try AudioFileFormat.open(Fixtures.path("garbage.m4a"))
        } catch {
            #expect("\(error)".hasPrefix("not a playable audio file ("), "\(error)")
        }
    }
}
