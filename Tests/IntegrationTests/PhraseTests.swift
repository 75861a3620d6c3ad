import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Phrase analysis and phrase mode against real speech (espeak-ng, `Scripts/lib/make-speech.sh`)
    /// and the reference decoder's samples.
    @Suite struct Phrases {
        static let rate = 44_100.0
        static let bytesPerFrame = 4

        /// The sentences' true bounds, seconds.
        static func truth() throws -> [(Double, Double)] {
            try String(contentsOfFile: TestEnvironment.fixture("speech.truth"), encoding: .utf8).split(separator: "\n")
                .map {
                    let fields = $0.split(separator: " ").map { Double($0)! }
                    return (fields[0], fields[1])
                }
        }

        /// Asks for the phrases until the analysis has finished; each as (start, end) frames.
        static func phrases(_ daemon: DaemonProcess, timeout: Double = 30) throws -> [(Int, Int)] {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let reply = try daemon.call("phrases")
                guard reply["status"]?.stringValue == "success" else {
                    throw TestFailure("phrases: \(reply.serialized)")
                }
                if reply["complete"]?.boolValue == true {
                    return (reply["phrases"]?.arrayValue ?? []).map {
                        (
                            Int(($0["start"]!.numberValue! * rate).rounded()),
                            Int(($0["end"]!.numberValue! * rate).rounded())
                        )
                    }
                }
                usleep(20_000)
            }
            throw TestFailure("the analysis did not finish within \(timeout) s")
        }

        static func frames(_ reference: Data, _ range: Range<Int>) -> Data {
            reference.subdata(in: range.lowerBound * bytesPerFrame..<range.upperBound * bytesPerFrame)
        }

        @Test(
            "the phrases are the sentences, each bound within 50 ms, quiet, loud and over noise; the last with its padding",
            arguments: ["speech-loud.flac", "speech-quiet.flac", "speech-noisy.flac"])
        func sentences(file: String) throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue([file])
            let truth = try Self.truth()
            let found = try Self.phrases(daemon)
            try #require(found.count == truth.count, "\(found)")
            let padding = 0.15
            for (phrase, sentence) in zip(found, truth) {
                let (start, end) = (Double(phrase.0) / Self.rate, Double(phrase.1) / Self.rate)
                #expect(abs(start + padding - sentence.0) <= 0.05, "\(file): \(start) for \(sentence.0)")
                #expect(abs(end - padding - sentence.1) <= 0.05, "\(file): \(end) for \(sentence.1)")
            }
        }

        @Test(
            "phrase mode, 2 repeats with gaps as long as each phrase: the capture is each phrase's reference samples, silence of its length, again, then the next"
        )
        func repeatsWithGaps() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["speech-loud.flac"])
            let reply = try daemon.call(
                "setPhraseMode", [("enabled", .bool(true)), ("repeats", .number(2)), ("gapFactor", .number(1))])
            #expect(reply["status"]?.stringValue == "success", "\(reply.serialized)")
            let phrases = try Self.phrases(daemon)
            try #require(phrases.count == 5)
            let mode = try daemon.nowPlaying()["phraseMode"]
            #expect(mode?["enabled"]?.boolValue == true && mode?["repeats"]?.numberValue == 2)
            _ = try daemon.call("play")
            try events.waitForEvent(timeout: 60) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let reference = try TestEnvironment.reference("speech-loud")
            var expected = Data()
            for (start, end) in phrases {
                let silence = Data(count: (end - start) * Self.bytesPerFrame)
                expected +=
                    Self.frames(reference, start..<end) + silence + Self.frames(reference, start..<end) + silence
            }
            expected += reference.subdata(in: phrases.last!.1 * Self.bytesPerFrame..<reference.count)
            let difference = pcmDifference(try daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test(
            "a silent item has no phrases and phrase mode plays it as it is; a noise without pauses is cut by the length limit; bad arguments are refused"
        )
        func notSpeech() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            #expect(try daemon.call("phrases")["status"]?.stringValue == "noActionableNowPlayingItem")
            for arguments in [
                [("repeats", JSONValue.number(2))],
                [("enabled", .bool(true)), ("repeats", .number(0))],
                [("enabled", .bool(true)), ("repeats", .number(11))],
                [("enabled", .bool(true)), ("repeats", .number(1.5))],
                [("enabled", .bool(true)), ("gapFactor", .number(3.5))],
                [("enabled", .bool(true)), ("gapExtra", .number(-1))],
                [("enabled", .string("yes"))],
            ] {
                let reply = try daemon.call("setPhraseMode", arguments)
                #expect(reply["status"]?.stringValue == "badRequest", "\(arguments): \(reply.serialized)")
                #expect(reply["message"]?.stringValue?.isEmpty == false)
            }
            for arguments in [[("threshold", JSONValue.number(100))], [("minimumSilence", .number(0))]] {
                #expect(try daemon.call("analyzePhrases", arguments)["status"]?.stringValue == "badRequest")
            }
            _ = try daemon.enqueue(["phrase-noise.flac"])
            let cut = try Self.phrases(daemon)
            #expect(cut.count >= 3, "\(cut)")
            #expect(cut.allSatisfy { Double($0.1 - $0.0) / Self.rate <= 20.5 }, "\(cut)")
            #expect(cut.first?.0 == 0 && cut.last?.1 == 45 * 44_100, "\(cut)")
            _ = try daemon.enqueue(["phrase-silent.flac"], replace: true)
            let silent = try Self.phrases(daemon)
            let shown = try daemon.nowPlaying()
            #expect(silent.isEmpty, "\(silent) \(shown.serialized)")
            let next = try daemon.call("nextPhrase")
            #expect(next["status"]?.stringValue == "commandFailed", "\(next.serialized)")
            #expect(next["message"]?.stringValue?.contains("silent") == true)
            _ = try daemon.call("setPhraseMode", [("enabled", .bool(true))])
            _ = try daemon.call("play")
            try daemon.waitForState("stopped", timeout: 30)
            let reference = Data(count: 3 * 44_100 * Self.bytesPerFrame)
            #expect(pcmDifference(try daemon.captured(), reference) == nil)
        }

        /// The phrase a pushed event shows: number, repetition, whether in its gap.
        static func step(_ event: JSONValue) -> [Double]? {
            guard let shown = event["nowPlaying"], let number = shown["phraseNumber"]?.numberValue else { return nil }
            return [
                number, shown["phraseRepetition"]?.numberValue ?? -1, shown["inPhraseGap"]?.boolValue == true ? 1 : 0,
            ]
        }

        @Test(
            "on a paced device the gap holds the position; pause in it and play goes on with the next repeat; next, previous, again and the skips land on phrase starts; each step is pushed once"
        )
        func navigation() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["speech-loud.flac"])
            _ = try daemon.call(
                "setPhraseMode", [("enabled", .bool(true)), ("repeats", .number(2)), ("gapFactor", .number(1))])
            let phrases = try Self.phrases(daemon).map { (Double($0.0) / Self.rate, Double($0.1) / Self.rate) }
            var pushed: [[Double]] = []
            func record(_ event: JSONValue) -> [Double]? {
                guard event["changes"]?.arrayValue?.contains(.string("phrase")) == true, let step = Self.step(event)
                else { return nil }
                pushed.append(step)
                return step
            }
            _ = try daemon.call("play")
            let gap = try events.waitForEvent(timeout: 30) { record($0) == [0, 0, 1] }
            #expect(gap["nowPlaying"]?["rate"]?.numberValue == 0, "the position holds in the gap")
            #expect(abs((gap["nowPlaying"]?["elapsed"]?.numberValue ?? 0) - phrases[0].1) < 1e-3)
            #expect(gap["nowPlaying"]?["phraseStart"]?.numberValue.map { abs($0 - phrases[0].0) < 1e-5 } == true)
            #expect(try daemon.call("pause")["status"]?.stringValue == "success")
            let paused = try daemon.nowPlaying()
            #expect(paused["inPhraseGap"]?.boolValue == true && paused["phraseRepetition"]?.numberValue == 0)
            _ = try daemon.call("play")
            // Announced when the device plays it (a new stream on the null sink can take over a
            // second): back within the phrase, which plays again from its start.
            let resumed = try events.waitForEvent(timeout: 30) { record($0) == [0, 1, 0] }
            let elapsed = resumed["nowPlaying"]?["elapsed"]?.numberValue ?? 0
            #expect(elapsed >= phrases[0].0 - 1e-3 && elapsed < phrases[0].1, "\(elapsed) for \(phrases[0])")
            for (command, target) in [
                ("nextPhrase", 1), ("skipForward", 2), ("skipBackward", 1), ("replayPhrase", 1), ("previousPhrase", 0),
            ] {
                let reply = try daemon.call(command)
                let landed = try #require(reply["position"]?.numberValue, "\(command): \(reply.serialized)")
                #expect(abs(landed - phrases[target].0) < 1e-5, "\(command): \(landed) for \(phrases[target].0)")
                let shown = try daemon.nowPlaying()
                #expect(shown["phraseNumber"]?.numberValue == Double(target), "\(command)")
                #expect(shown["phraseRepetition"]?.numberValue == 0 && shown["inPhraseGap"]?.boolValue == false)
                if target != 1 || command == "nextPhrase" || command == "skipBackward" {
                    try events.waitForEvent(timeout: 30) { record($0)?.first == Double(target) }
                }
            }
            #expect(zip(pushed, pushed.dropFirst()).allSatisfy { $0 != $1 }, "each step once: \(pushed)")
        }

        @Test("with repeat-one, the item begun again plays phrase by phrase too, from its first phrase")
        func repeatOne() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["speech-loud.flac"])
            _ = try daemon.call("changeRepeatMode", [("mode", .string("one"))])
            _ = try daemon.call("setPhraseMode", [("enabled", .bool(true)), ("gapFactor", .number(0.5))])
            let phrases = try Self.phrases(daemon)
            _ = try daemon.call("play")
            try events.waitForState("playing")
            for _ in 1..<phrases.count { _ = try daemon.call("nextPhrase") }
            try events.waitForEvent(timeout: 30) { Self.step($0) == [4, 0, 1] }
            let again = try events.waitForEvent(timeout: 30) { Self.step($0)?.first == 0 }
            #expect(Self.step(again) == [0, 0, 0] && again["nowPlaying"]?["queueIndex"]?.numberValue == 0)
            let elapsed = again["nowPlaying"]?["elapsed"]?.numberValue ?? -1
            #expect(elapsed >= Double(phrases[0].0) / Self.rate - 1e-3 && elapsed < Double(phrases[0].1) / Self.rate)
        }

        @Test("the phrases are kept in the cache: a new daemon uses them, and finds them again when the file changes")
        func cache() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            let file = directory + "/speech.flac"
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("speech-loud.flac"), toPath: file)
            let shared = ["XDG_CACHE_HOME": directory + "/cache"]
            let first = try DaemonProcess(environment: shared)
            _ = try first.call("enqueue", [("items", .array([.string(file)]))])
            let found = try Self.phrases(first)
            _ = first.terminate()
            let kept = try #require(
                FileManager.default.contentsOfDirectory(atPath: directory + "/cache/playbackd/phrases").first)
            // What the cache holds is what a new daemon reports: the file is read, not analysed.
            let path = directory + "/cache/playbackd/phrases/" + kept
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let marker = text.replacingOccurrences(of: #""phrases":[["#, with: #""phrases":[[0.5,0.75],["#)
            try marker.write(toFile: path, atomically: true, encoding: .utf8)
            let second = try DaemonProcess(environment: shared)
            _ = try second.call("enqueue", [("items", .array([.string(file)]))])
            let reused = try Self.phrases(second)
            #expect(reused.count == found.count + 1 && reused.first! == (22_050, 33_075))
            // A changed file is analysed again.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.close()
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file)
            _ = try second.call("enqueue", [("items", .array([.string(file)]))], id: nil)
            _ = try second.call("jump", [("index", .number(1))])
            let again = try Self.phrases(second)
            #expect(again.count == found.count && zip(again, found).allSatisfy { $0 == $1 })
        }

        @Test(
            "at 0.75x with the pitch kept, each phrase and its gap last 4/3 as long: the gap starts and ends as the stretched phrase does"
        )
        func slowed() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["speech-loud.flac"])
            _ = try daemon.call("changePlaybackRate", [("rate", .number(0.75))])
            _ = try daemon.call("setPhraseMode", [("enabled", .bool(true)), ("gapFactor", .number(1))])
            let phrases = try Self.phrases(daemon)
            _ = try daemon.call("play")
            try events.waitForEvent(timeout: 60) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let captured = try daemon.captured()
            let stretched = phrases.reduce(0) { $0 + 2 * ($1.1 - $1.0) } * 4 / 3
            let tail =
                (try TestEnvironment.reference("speech-loud").count / Self.bytesPerFrame - phrases.last!.1) * 4 / 3
            let frames = captured.count / Self.bytesPerFrame
            #expect(abs(frames - stretched - tail) < 44_100 / 10, "\(frames) frames for \(stretched + tail)")
            // The first gap: silence for as long as the stretched first phrase, where it ends.
            let firstEnd = (phrases[0].1 - phrases[0].0) * 4 / 3
            // The gap, with the phrase's padding on either side (0.15 s each, stretched).
            let quietRun = Self.longestSilence(captured, from: firstEnd - 22_050, to: firstEnd * 2 + 22_050)
            #expect(quietRun >= firstEnd - 441 && quietRun <= firstEnd + 17_640 + 4410, "\(quietRun) for \(firstEnd)")
        }

        /// The longest run of frames with every sample within 8 LSB of zero between two frames.
        static func longestSilence(_ data: Data, from: Int, to: Int) -> Int {
            data.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: Int16.self)
                var (longest, run) = (0, 0)
                for frame in max(0, from)..<min(to, samples.count / 2) {
                    if abs(Int(samples[2 * frame])) <= 8 && abs(Int(samples[2 * frame + 1])) <= 8 {
                        run += 1
                        longest = max(longest, run)
                    } else {
                        run = 0
                    }
                }
                return longest
            }
        }
    }
}
