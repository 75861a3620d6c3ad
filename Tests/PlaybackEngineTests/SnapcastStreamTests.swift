import Foundation
import Testing

@testable import PlaybackEngine

/// The Snapcast output's address and its conversion to the stream's format, without a server.
@Suite struct SnapcastStreamTests {
    @Test func anAddressWithTheStreamsConfiguration() throws {
        let plain = try SnapcastAddress(parsing: "tcp://127.0.0.1:4953")
        #expect(plain.host == "127.0.0.1" && plain.port == 4953 && plain.sampleRate == 48_000)
        #expect(plain.latencyNanoseconds == 980_000_000)
        let tuned = try SnapcastAddress(parsing: "tcp://[::1]:5000?sampleformat=44100:16:2&buffer=1500&chunk_ms=25")
        #expect(tuned.host == "::1" && tuned.sampleRate == 44_100 && tuned.latencyNanoseconds == 1_475_000_000)
        #expect(tuned.description == "tcp://[::1]:5000")
    }

    @Test(arguments: [
        "pipe:///tmp/snapfifo", "tcp://host", "tcp://:4953", "tcp://host:0", "tcp://host:70000",
        "tcp://host:1?sampleformat=48000:24:2", "tcp://host:1?buffer=5", "tcp://host:1?codec=flac", "tcp://host:1?x",
    ])
    func aBadAddressSaysWhy(text: String) {
        #expect(throws: SnapcastAddressError.self) { try SnapcastAddress(parsing: text) }
    }

    @Test func stereoAtTheStreamsRatePassesUntouched() throws {
        let converter = try StreamConverter(
            input: AudioFormat(sampleRate: 48_000, channels: 2), streamRate: 48_000, maximumInputFrames: 64)
        #expect(converter.passesUntouched)
    }

    @Test func monoIsDoubledBitForBit() throws {
        let converter = try StreamConverter(
            input: AudioFormat(sampleRate: 48_000, channels: 1), streamRate: 48_000, maximumInputFrames: 4)
        let samples: [Int16] = [1, -2, 32_767, -32_768]
        let made = samples.withUnsafeBytes { converter.convert($0, frames: 4) }
        #expect(made == 4)
        #expect(Array(converter.output[..<8]) == [1, 1, -2, -2, 32_767, 32_767, -32_768, -32_768])
    }

    /// A 1 kHz tone at 44.1 kHz, resampled: as many frames out as the ratio says (libsoxr's
    /// delay flushed), at the same level, and still a 1 kHz tone (zero crossings).
    @Test func anotherRateIsResampled() throws {
        let frames = 44_100
        let converter = try StreamConverter(
            input: AudioFormat(sampleRate: 44_100, channels: 2), streamRate: 48_000, maximumInputFrames: frames)
        var tone = [Int16](repeating: 0, count: frames * 2)
        for index in 0..<frames {
            let phase = 2 * Double.pi * 1000 * Double(index) / 44_100
            tone[index * 2] = Int16(16_000 * sin(phase))
            tone[index * 2 + 1] = tone[index * 2]
        }
        var out: [Int16] = []
        let made = tone.withUnsafeBytes { converter.convert($0, frames: frames) }
        out += converter.output[..<(made * 2)]
        let flushed = converter.flush()
        out += converter.output[..<(flushed * 2)]
        #expect(abs(out.count / 2 - 48_000) <= 2, "\(out.count / 2) frames")
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
        let middle = left[4800..<43_200]
        #expect(abs(Int(middle.max()!) - 16_000) < 200)
        let crossings = zip(middle, middle.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        #expect(abs(crossings - 800) <= 1, "\(crossings) cycles in 0.8 s")
    }
}
