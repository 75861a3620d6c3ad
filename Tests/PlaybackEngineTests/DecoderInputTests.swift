import Foundation
import Testing

@testable import PlaybackEngine

/// The buffered reader the decoding libraries read a file through: every read and seek must behave as
/// read(2) and lseek(2) on the file itself, whatever the buffer holds.
@Suite struct DecoderInputTests {
    @Test("random reads and seeks (set, current, end; inside and outside the buffer) return the file's bytes")
    func matchesTheFile() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("file-input-\(UUID()).bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try DecoderInput.open(path)
        #expect(input.size == bytes.count)
        var position = 0
        var destination = [UInt8](repeating: 0, count: 100_000)
        for step in 0..<5_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                // Mostly small reads, as libmpg123 makes (a 4-byte header, a frame's body),
                // now and then one larger than the buffer.
                let count = Bool.random() ? Int.random(in: 1...600) : Int.random(in: 1...destination.count)
                let got = destination.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: count) }
                let expected = max(0, min(count, bytes.count - position))
                #expect(got == expected, "step \(step): read \(count) at \(position)")
                if got > 0 {
                    #expect(Array(destination[..<got]) == Array(bytes[position..<(position + got)]), "step \(step)")
                }
                position += max(0, got)
            case 6..<8:
                let target = Int.random(in: -2_000...2_000)
                guard position + target >= 0 else { continue }
                #expect(input.seek(to: off_t(target), whence: SEEK_CUR) == off_t(position + target))
                position += target
            case 8:
                let target = Int.random(in: 0...bytes.count + 100)
                #expect(input.seek(to: off_t(target), whence: SEEK_SET) == off_t(target))
                position = target
            default:
                let back = Int.random(in: 0...200)
                #expect(input.seek(to: off_t(-back), whence: SEEK_END) == off_t(bytes.count - back))
                position = bytes.count - back
            }
        }
        #expect(input.seek(to: -1, whence: SEEK_SET) == -1, "a negative position is refused")
        #expect(input.readFailure == nil)
    }
}
