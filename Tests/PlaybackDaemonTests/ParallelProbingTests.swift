import Foundation
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// A long list is probed on several threads at once; what comes out must be what probing the
/// files one by one gives, in the same order.
@Suite struct ParallelProbingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/generated").path

    @Test("300 files through the threads: the order, the tags, the rejections and the stored covers of one by one")
    func parallelEqualsSequential() throws {
        let root = NSTemporaryDirectory() + "pbd-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let music = root + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Every third file carries embedded pictures, so threads store the same cover at once;
        // every fiftieth is not audio at all.
        func source(_ index: Int) -> String {
            index % 50 == 0 ? "not-audio.mp3" : index % 3 == 0 ? "tag-v23-utf16.mp3" : "one.mp3"
        }
        let count = 300
        #expect(count >= ParallelRuns.minimum)
        for index in 1...count {
            try FileManager.default.createSymbolicLink(
                atPath: "\(music)/track \(index).mp3", withDestinationPath: Self.fixtures + "/" + source(index))
        }
        let prober = ItemProber(
            openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path, readsPictures: true) },
            artwork: ArtworkStore(directory: root + "/artwork"))

        let (items, rejected) = prober.probe([music], limit: 1000, ids: ItemIDs())

        let expectedPaths = (1...count).filter { $0 % 50 != 0 }.map { "\(music)/track \($0).mp3" }
        #expect(items.map(\.path) == expectedPaths, "natural order, rejected files left out")
        #expect(rejected.map(\.path) == (1...count).filter { $0 % 50 == 0 }.map { "\(music)/track \($0).mp3" })
        #expect(zip(items.dropFirst(), items).allSatisfy { $0.id == $1.id + 1 }, "consecutive ids")
        // One by one (a list this short stays on the calling thread), each fixture once.
        var single: [String: TrackMetadata] = [:]
        for name in ["one.mp3", "tag-v23-utf16.mp3"] {
            single[name] = prober.probe([Self.fixtures + "/" + name], limit: 1, ids: ItemIDs()).items.first?.metadata
        }
        #expect(single["tag-v23-utf16.mp3"]?.artworkPath != nil)
        var mismatches: [String] = []
        for item in items {
            let index = Int(item.path.split(separator: " ").last!.dropLast(4))!
            if item.metadata != single[source(index)] { mismatches.append(item.path) }
        }
        #expect(mismatches.isEmpty, "differ from probing one by one: \(mismatches.prefix(5))")
        let stored = try FileManager.default.contentsOfDirectory(atPath: root + "/artwork")
        #expect(stored.count == 1, "one cover file, no temporary left behind: \(stored)")
    }
}
