import Foundation
import PlaybackEngine
import Testing

/// The generated fixtures (`Scripts/make-fixtures`) and the test ALSA configuration.
enum Fixtures {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func path(_ name: String) -> String { root + "/Tests/Fixtures/generated/" + name }

    static func reference(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name + ".ref.raw")))
    }

    /// Makes this process use the test ALSA configuration, capturing to `capture`.
    static func useTestALSA(capture: String) {
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:" + root + "/Tests/alsa/test.conf", 1)
        setenv("PLAYBACKD_CAPTURE", capture, 1)
    }

    /// Everything `decoder` decodes from where it is, as little-endian bytes (the reference
    /// decoders' raw output).
    static func decodeAll(_ decoder: any AudioDecoder) throws -> Data {
        var out = Data()
        var buffer = [Int16](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if count == 0 { return out }
            out.append(buffer.withUnsafeBytes { Data($0.prefix(count * 2)) })
        }
    }

    /// Everything `decoder` decodes from where it is, as 32-bit samples.
    static func decodeAllWide(_ decoder: any AudioDecoder) throws -> [Int32] {
        var out: [Int32] = []
        var buffer = [Int32](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if count == 0 { return out }
            out += buffer.prefix(count)
        }
    }

    /// A reference decoder's little-endian samples of `bytes` bytes each (3: `flac -d`'s
    /// 24-bit; 4: `ffmpeg -f s32le`), each at the top of 32 bits.
    static func wideReference(_ file: String, bytes: Int) throws -> [Int32] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(file)))
        return stride(from: 0, to: data.count - bytes + 1, by: bytes).map { offset in
            var value: UInt32 = 0
            for byte in 0..<bytes { value |= UInt32(data[data.startIndex + offset + byte]) << (8 * (4 - bytes + byte)) }
            return Int32(bitPattern: value)
        }
    }

    /// The largest difference between two 16-bit little-endian streams of one length, in LSB;
    /// nil when their lengths differ.
    static func largestDifference(_ a: Data, _ b: Data) -> Int? {
        guard a.count == b.count else { return nil }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                zip(x.bindMemory(to: Int16.self), y.bindMemory(to: Int16.self)).reduce(0) {
                    max($0, abs(Int($1.0) - Int($1.1)))
                }
            }
        }
    }

    /// Seeks one `decoder` (stereo) to each of `frames` in turn and reads one block after each:
    /// the frame it landed on, how many samples came, and their largest difference from
    /// `reference` there (nil when the lengths differ).
    static func seeks(_ decoder: any AudioDecoder, _ frames: [Int], reference: Data, block: Int)
        throws -> [(frame: Int, landed: Int, count: Int, difference: Int?)]
    {
        try frames.map { frame in
            let landed = try decoder.seek(toFrame: frame)
            var buffer = [Int16](repeating: 0, count: block)
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            let expected = reference.subdata(in: frame * 4..<min(reference.count, frame * 4 + count * 2))
            return (
                frame, landed, count, largestDifference(buffer.withUnsafeBytes { Data($0.prefix(count * 2)) }, expected)
            )
        }
    }

    /// Seeks `file`'s decoder forward and back across it (both ends, around a boundary of its
    /// `frameSize`-sample frames, the middle) and expects each seek to land on its frame, with
    /// the next `block` samples within `tolerance` LSB of the file's reference there. Returns
    /// the decoder and the reference.
    @discardableResult
    static func expectExactSeeks(_ file: String, tolerance: Int, frameSize: Int = 1_024, block: Int = 4_000) throws
        -> (decoder: any AudioDecoder, reference: Data)
    {
        let reference = try Fixtures.reference(String(file.prefix { $0 != "." }))
        let frames = reference.count / 4
        let decoder = try AudioFileFormat.open(Fixtures.path(file))
        let frameList = [frames / 2 + 3, 1, frameSize - 1, frameSize, frameSize + 1, 319_725, frames - 1_000, 0]
        for seek in try Fixtures.seeks(decoder, frameList.filter { $0 < frames }, reference: reference, block: block) {
            #expect(seek.landed == seek.frame)
            #expect(
                seek.count > 0 && seek.difference.map { $0 <= tolerance } == true,
                "frame \(seek.frame): \(seek.difference ?? -1) LSB")
        }
        return (decoder, reference)
    }
}
