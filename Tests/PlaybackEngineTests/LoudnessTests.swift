import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// Loudness measured by libebur128 against ffmpeg's `ebur128` filter (`loudness.ref`, written
/// by `Scripts/make-fixtures`): noise and chords from -40 to -11 LUFS, mono, stereo and 5.1,
/// 44.1 to 96 kHz, 16 and 24 bits, FLAC and MP3; an album's loudness against its tracks joined.
@Suite struct LoudnessTests {
    /// ffmpeg's integrated loudness of each fixture, by name.
    static let reference: [String: Double] = {
        let text = (try? String(contentsOfFile: Fixtures.path("loudness.ref"), encoding: .utf8)) ?? ""
        return Dictionary(
            uniqueKeysWithValues: text.split(separator: "\n").map {
                let fields = $0.split(separator: " ")
                return (String(fields[0]), Double(fields[1])!)
            })
    }()

    static let analysis = LoudnessAnalysis { request throws(DecoderError) in try AudioFileFormat.open(request) }

    static func measure(_ file: String) throws -> MeasuredFile {
        try #require(try analysis.measure(path: Fixtures.path(file), isCancelled: { false }))
    }

    @Test(
        "each file's integrated loudness within 0.1 LU of ffmpeg's ebur128",
        arguments: [
            "loud-noise-40.flac", "loud-noise-10.flac", "loud-chord-mono.flac", "loud-surround.flac",
            "loud-chord-96k.flac", "loud-noise-mp3.mp3",
        ])
    func integrated(file: String) throws {
        let expected = try #require(Self.reference[String(file.split(separator: ".")[0])])
        let measured = try Self.measure(file)
        #expect(measured.stoppedBy == nil)
        let loudness = try #require(measured.loudness.integrated)
        #expect(abs(loudness - expected) <= 0.1, "\(file): \(loudness) LUFS, ffmpeg \(expected)")
    }

    @Test("the levels span -40 to -11 LUFS, and the LFE channel of 5.1 is not counted")
    func levelsAndWeights() throws {
        let levels = try ["loud-noise-40.flac", "loud-noise-10.flac"].map {
            try #require(Self.measure($0).loudness.integrated)
        }
        #expect(levels[0] < -39.5 && levels[1] > -11.5)
        // The same 5.1 signal with its LFE channel silenced measures the same.
        let meter = try LoudnessMeter(channels: 6, sampleRate: 48000)
        let silenced = try LoudnessMeter(channels: 6, sampleRate: 48000)
        var frames = [Int16](repeating: 0, count: 48000 * 6 * 3)
        var lfeless = frames
        for frame in 0..<(frames.count / 6) {
            for channel in 0..<6 {
                let value = Int16(8000 * sin(Double(frame) * Double(channel + 1) * 0.013))
                frames[frame * 6 + channel] = value
                lfeless[frame * 6 + channel] = channel == 3 ? 0 : value
            }
        }
        frames.withUnsafeBufferPointer { meter.add($0) }
        lfeless.withUnsafeBufferPointer { silenced.add($0) }
        let (a, b) = (try #require(meter.loudness.integrated), try #require(silenced.loudness.integrated))
        #expect(abs(a - b) < 1e-9, "\(a) vs \(b)")
    }

    @Test("an album's loudness is gated over its tracks together: ffmpeg's measure of them joined, within 0.1 LU")
    func album() throws {
        let tracks = try ["loud-album1.flac", "loud-album2.flac"].map(Self.measure)
        let album = try #require(LoudnessMeter.albumLoudness(tracks.map(\.meter)))
        let expected = try #require(Self.reference["loud-album"])
        #expect(abs(album - expected) <= 0.1, "\(album) LUFS, ffmpeg \(expected)")
        // Not the tracks' average, which is 8 LU lower here.
        let levels = try tracks.map { try #require($0.loudness.integrated) }
        #expect(abs(album - (levels[0] + levels[1]) / 2) > 5)
        // Each track keeps its own measure.
        #expect(abs(levels[0] - Self.reference["loud-album1"]!) <= 0.1)
    }

    @Test("the peak is the largest sample, full scale 1; digital silence has no loudness and a peak of 0")
    func peakAndSilence() throws {
        let decoder = try AudioFileFormat.open(DecoderRequest(path: Fixtures.path("loud-chord-mono.flac")))
        let samples = try Fixtures.decodeAll(decoder).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let largest = samples.map { abs(Double($0)) }.max()! / 32768
        #expect(abs(try Self.measure("loud-chord-mono.flac").loudness.peak - largest) < 1e-9)
        let silence = try Self.measure("loud-silence.flac")
        #expect(silence.loudness == Loudness(integrated: nil, peak: 0))
        #expect(silence.frames == 4 * 44100)
        #expect(LoudnessMeter.albumLoudness([silence.meter]) == nil)
        #expect(LoudnessMeter.albumLoudness([]) == nil, "an album none of whose files opened")
    }

    @Test(
        "a truncated file is measured as far as it decodes; an empty or broken one is an error; a cancelled one stops")
    func badInput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbdtest-loudness-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("loud-noise-10.flac")))
        let truncated = directory.appendingPathComponent("truncated.flac")
        try whole.prefix(whole.count / 2).write(to: truncated)
        let measured = try #require(try Self.analysis.measure(path: truncated.path, isCancelled: { false }))
        #expect(measured.frames > 44100 * 2 && measured.frames < 44100 * 6, "\(measured.frames) frames")
        let loudness = try #require(measured.loudness.integrated)
        #expect(abs(loudness - Self.reference["loud-noise-10"]!) < 0.5)

        let empty = directory.appendingPathComponent("empty.flac")
        try Data().write(to: empty)
        for path in [empty.path, Fixtures.path("garbage.mp3"), directory.appendingPathComponent("gone.flac").path] {
            #expect(throws: LoudnessError.self, "\(path)") {
                _ = try Self.analysis.measure(path: path, isCancelled: { false })
            }
        }
        var asked = 0
        let cancelled = try Self.analysis.measure(path: Fixtures.path("loud-noise-10.flac")) {
            asked += 1
            return asked > 3
        }
        #expect(cancelled == nil)
    }
}
