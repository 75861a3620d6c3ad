import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// AAC in MP4 read by `MP4Movie` and decoded by libfaad: bit for bit `faad`'s output, exactly as
/// long as its source (the edit list's length, not faad's command line's), exact seeks, the
/// iTunes atoms and the cover, both kinds of chapters, and refusals with a reason.
@Suite struct AACDecoderTests {
    @Test(
        "each file decodes as faad decodes it, exactly as long as its source",
        arguments: ["aac-one.m4a", "aac-two.m4a", "aac-three.m4a", "aac-long.m4a"])
    func decodesAsReference(file: String) throws {
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        #expect(decoder is AACDecoder)
        let reference = try Fixtures.reference(String(file.prefix { $0 != "." }))
        let decoded = try Fixtures.decodeAll(decoder)
        #expect(decoded == reference, "\(decoded.count) vs \(reference.count) bytes")
        #expect(decoder.frameCount.map { $0 * 4 } == reference.count)
    }

    /// Within 1 LSB, not bit for bit: a new decoder starts the random generator of noise
    /// substitution afresh (a preroll of 32 frames instead of 4 leaves the same 1 LSB).
    @Test("a seek lands on the sample asked for, forward and back on one decoder")
    func seekIsExact() throws {
        try Fixtures.expectExactSeeks("aac-long.m4a", tolerance: 1)
    }

    @Test("MP4 atoms: tags, the iTunes ReplayGain atom, the cover")
    func tags() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("aac-tags.m4a"), readsPictures: true)
        let tags = decoder.metadata
        #expect(tags.title == "日本語 ✓ Ünïcode" && tags.artist == "Артист" && tags.album == "MP4")
        #expect(tags.albumArtist == "Band ♪" && tags.composer == "Ω" && tags.genre == "Jazz" && tags.year == 2010)
        #expect(tags.trackNumber == 3 && tags.trackCount == 12 && tags.discNumber == 2 && tags.discCount == 2)
        #expect(tags.replayGainTrackGain == -4.25)
        #expect(tags.musicBrainzTrackID == "b1a9c0e9-d987-4042-ae91-78d6a3267d69" && tags.isrc == "USRC17607839")
        #expect(tags.duration == 1.5)
        let cover = try #require(decoder.coverPicture())
        #expect(cover.mimeType == "image/jpeg")
        #expect(cover.data == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("front.jpg")))))
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

    @Test("a moov that claims 2 GiB is read to the file's end, as libavformat reads it")
    func moovPastTheEnd() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("mp4-moov-past-end.m4a"))
        #expect(decoder is AACDecoder)
        #expect(try Fixtures.decodeAll(decoder) == (try Fixtures.reference("aac-one")))
    }

    @Test("chapters: Nero's chpl, and a QuickTime chapter track where there is no chpl")
    func chapters() throws {
        for file in ["chapters.m4b", "chapters-track.m4b"] {
            let decoder = try AudioFileFormat.open(Fixtures.path(file))
            #expect(decoder is AACDecoder)
            let chapters = decoder.metadata.chapters.map { "\($0.start) \($0.title)" }
            #expect(chapters == ["0.0 Prologue", "2.5 Chapter One", "5.0 Épilogue"], "\(file)")
        }
    }

    @Test("iTunSMPB: the encoder's delay and the length in samples, in hexadecimal words")
    func iTunesGapless() {
        let text = " 00000000 00000840 000001CA 00000000003F31F6 00000000 00000000 00000000 00000000"
        #expect(AACDecoder.iTunesGapless(text)! == (start: 0x840, frames: 0x3F31F6))
        #expect(AACDecoder.iTunesGapless("garbage") == nil)
    }
}
