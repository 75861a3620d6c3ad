import Foundation
import Testing

extension IntegrationSuite {
    /// The fuzz targets' seeds and every input a fuzzing run found crashing (`Tests/Fuzz/`)
    /// go through the same targets in a normal build: a regression comes back as a failure here.
    @Suite struct FuzzReplay {
        @Test(
            "every seed and every minimised crash replays through its fuzz target",
            arguments: [
                "request", "now-playing", "state", "eq-text", "id3", "flac", "ogg", "mp4", "id3v22-pictures",
                "id3-chapters", "m3u", "icy", "config", "phrases", "mpd-line",
            ])
        func replay(_ target: String) throws {
            let directory = TestEnvironment.packageRoot + "/Tests/Fuzz/" + target
            let inputs = try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map {
                directory + "/" + $0
            }
            #expect(!inputs.isEmpty, "seeds for \(target)")
            let run = try CommandLineRun.run("playbackd-fuzz", [target] + inputs)
            #expect(run.status == 0, "\(target): \(run.stderr)")
            #expect(run.stdout == "\(inputs.count) inputs through \(target)\n")
        }
    }
}
