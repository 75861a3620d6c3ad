import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// libFLAC behind `AudioDecoder`: every sample as `flac -d` writes it, exact lengths and seeks,
/// tags and pictures as metaflac wrote them, and clear refusals.
@Suite struct FLACDecoderTests {
    @Test("each item decodes as flac -d does, native and in Ogg; the length is STREAMINFO's, exact")
    func decodesAsReference() throws {
        for file in ["flac-one.flac", "flac-two.flac", "flac-three.flac", "flac-mono48.flac", "flac-ogg.oga"] {
            let decoder = try AudioFileFormat.open(Fixtures.path(file))
            #expect(decoder is FLACDecoder, "\(file)")
            let reference = try Fixtures.reference(String(file.prefix { $0 != "." }))
            #expect(try Fixtures.decodeAll(decoder) == reference, "\(file)")
            #expect(decoder.frameCount.map { $0 * decoder.format.channels * 2 } == reference.count, "\(file)")
        }
    }

    @Test("the three items laid end to end are the signal they were cut from")
    func itemsAreTheSignal() throws {
        let decoded = try ["flac-one", "flac-two", "flac-three"].map {
            try Fixtures.decodeAll(AudioFileFormat.open(Fixtures.path($0 + ".flac")))
        }
        #expect(
            decoded.reduce(Data(), +) == (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("flac-signal.raw")))))
    }

    @Test(
        "a seek lands on the sample asked for, forward and back on one decoder",
        arguments: ["flac-long.flac", "flac-ogg.oga"])
    func seekIsExact(file: String) throws {
        let (decoder, reference) = try Fixtures.expectExactSeeks(file, tolerance: 0, frameSize: 4_096, block: 2_000)
        let frames = reference.count / 4
        let last = min(7 * 44_100, frames * 2 / 3)
        #expect(try decoder.seek(toFrame: last) == last)
        #expect(try Fixtures.decodeAll(decoder) == reference.subdata(in: last * 4..<reference.count))
    }

    @Test("tags and the front cover as metaflac wrote them; the first of a repeated key wins")
    func tagsAndCover() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("flac-tags.flac"), readsPictures: true)
        let tags = decoder.metadata
        #expect(tags.title == "日本語 ✓ Ünïcode")
        #expect(tags.artist == "Артист")
        #expect(tags.album == "Vorbis")
        #expect(tags.albumArtist == "Band ♪")
        #expect(tags.composer == "Ω")
        #expect(tags.genre == "Jazz")
        #expect(tags.year == 2010)
        #expect(tags.trackNumber == 3 && tags.trackCount == 12)
        #expect(tags.discNumber == 2 && tags.discCount == 2)
        #expect(tags.duration == 1.5 && tags.sampleRate == 44_100 && tags.channels == 2)
        let cover = try #require(decoder.coverPicture())
        #expect(cover.mimeType == "image/jpeg")
        #expect(cover.data == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("front.jpg")))))
        #expect(
            try AudioFileFormat.open(Fixtures.path("flac-tags.flac")).coverPicture() == nil, "no pictures kept to play")
    }

    @Test("ReplayGain as metaflac --add-replay-gain computed it")
    func replayGain() throws {
        for file in ["flac-rg1", "flac-rg2"] {
            let written = try Self.metaflacTags(file + ".flac")
            let tags = try AudioFileFormat.open(Fixtures.path(file + ".flac")).metadata
            #expect(tags.replayGainTrackGain == written["REPLAYGAIN_TRACK_GAIN"].flatMap(Self.decibels))
            #expect(tags.replayGainAlbumGain == written["REPLAYGAIN_ALBUM_GAIN"].flatMap(Self.decibels))
            #expect(tags.replayGainTrackPeak == written["REPLAYGAIN_TRACK_PEAK"].flatMap(Double.init))
            #expect(tags.replayGainAlbumPeak == written["REPLAYGAIN_ALBUM_PEAK"].flatMap(Double.init))
            #expect(tags.replayGainTrackGain != nil)
        }
    }

    @Test("24-bit 96 kHz: 32-bit samples, each flac -d's 24 bits at the top, exact after seeks")
    func twentyFourBits() throws {
        let decoder = try AudioFileFormat.open(Fixtures.path("flac-24bit.flac"))
        #expect(decoder.format == AudioFormat(sampleRate: 96_000, channels: 2, sampleFormat: .s32))
        let reference = try Fixtures.wideReference("flac-24bit.ref.raw", bytes: 3)
        #expect(decoder.frameCount == 3 * 96_000 && reference.count == 3 * 96_000 * 2)
        let decoded = try Fixtures.decodeAllWide(decoder)
        #expect(decoded == reference)
        #expect(Set(decoded.map { $0 & 0xFF00 }).count == 256, "every one of the 24 bits varies")
        for frame in [200_001, 7, 96_000 * 2 + 5] {
            #expect(try decoder.seek(toFrame: frame) == frame)
            #expect(try Fixtures.decodeAllWide(decoder) == Array(reference[(frame * 2)...]), "from frame \(frame)")
        }
    }

    @Test("a 16-bit decoder read as 32 bits gives its samples at the top")
    func widened() throws {
        let narrow = try Fixtures.decodeAll(AudioFileFormat.open(Fixtures.path("flac-one.flac")))
        let wide = try Fixtures.decodeAllWide(AudioFileFormat.open(Fixtures.path("flac-one.flac")))
        let mp3 = try Fixtures.decodeAllWide(AudioFileFormat.open(Fixtures.path("one.mp3")))
        let expected = [narrow, try Fixtures.reference("one")].map { data in
            data.withUnsafeBytes { $0.bindMemory(to: Int16.self).map { Int32($0) << 16 } }
        }
        #expect(wide == expected[0])
        #expect(mp3 == expected[1], "libmpg123's 16 bits, widened in the buffer they were decoded into")
    }

    @Test("refused with the reason: random bytes named .flac, an empty file")
    func refusals() throws {
        #expect(throws: DecoderError.notFLAC("no fLaC marker")) {
            try AudioFileFormat.open(Fixtures.path("garbage.flac"))
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).flac").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: DecoderError.notFLAC("empty file")) { try AudioFileFormat.open(empty) }
    }

    @Test("a truncated file decodes as far as it goes; a STREAMINFO that lies ends where the audio does")
    func brokenFiles() throws {
        let long = try Fixtures.reference("flac-long")
        let truncated = try Fixtures.decodeAll(AudioFileFormat.open(Fixtures.path("flac-truncated.flac")))
        #expect(truncated.count > long.count / 3 && truncated.count < long.count)
        #expect(truncated == long.prefix(truncated.count), "every sample decoded is the reference's")
        let lying = try AudioFileFormat.open(Fixtures.path("flac-lying-length.flac"))
        #expect(lying.frameCount == 2 * 104_521, "the header's claim")
        #expect(try Fixtures.decodeAll(lying) == (try Fixtures.reference("flac-one")))
    }

    /// The tags metaflac reads back, by name.
    static func metaflacTags(_ file: String) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/metaflac")
        process.arguments = ["--export-tags-to=-", Fixtures.path(file)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Dictionary(
            text.split(separator: "\n").compactMap { line in
                line.firstIndex(of: "=").map {
                    (String(line[..<$0]).uppercased(), String(line[line.index(after: $0)...]))
                }
            }, uniquingKeysWith: { first, _ in first })
    }

    static func decibels(_ text: String) -> Double? { Double(text.replacingOccurrences(of: " dB", with: "")) }
}
