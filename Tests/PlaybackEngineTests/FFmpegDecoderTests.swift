import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// FFmpeg behind `AudioDecoder` for ALAC in MP4, WAV and AIFF: bit for bit, exact seeks.
@Suite struct FFmpegDecoderTests {
    static let files: [(file: String, tolerance: Int)] = [
        ("alac-one.m4a", 0), ("wave-one.wav", 0), ("aiff-two.aiff", 0),
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

    @Test("a seek lands on the sample asked for, forward and back on one decoder")
    func seekIsExact() throws {
        try Fixtures.expectExactSeeks("wave-one.wav", tolerance: 0)
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
}
