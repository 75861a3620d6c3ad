import ControlProtocol
import Foundation
import Testing

extension ConcurrentIntegrationSuite {
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
    }
}
