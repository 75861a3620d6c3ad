import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The A-B loop: seamless and sample-exact, as the repeat-one loop is.
    @Suite struct LoopRanges {
        static let bytesPerFrame = 4

        /// The reference's frames `range`, as bytes.
        static func frames(_ reference: Data, _ range: Range<Int>) -> Data {
            reference.subdata(in: range.lowerBound * bytesPerFrame..<range.upperBound * bytesPerFrame)
        }

        @Test("three passes of 2 - 3.5 s, then on past the end: the capture is the reference's frames in that order")
        func passes() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"])
            let reply = try daemon.call(
                "setLoopRange", [("start", .number(2)), ("end", .number(3.5)), ("count", .number(3))])
            #expect(reply["status"]?.stringValue == "success", "\(reply.serialized)")
            let loop = try #require(try daemon.nowPlaying()["loopRange"])
            #expect(loop["start"]?.numberValue == 2 && loop["end"]?.numberValue == 3.5)
            #expect(loop["count"]?.numberValue == 3 && loop["pass"]?.numberValue == 1)
            _ = try daemon.call("play")
            var passes: [Double] = []
            try events.waitForEvent(timeout: 30) { event in
                if event["changes"]?.arrayValue?.contains(.string("loop")) == true {
                    passes.append(event["nowPlaying"]?["loopRange"]?["pass"]?.numberValue ?? 0)
                }
                return event["nowPlaying"]?["state"]?.stringValue == "stopped" && event["nowPlaying"]?["title"] == nil
            }
            // Set (pass 1), passes 2 and 3 begin, then the loop ends (no loopRange). On this
            // unpaced device two boundaries may be announced as one.
            #expect(passes.first == 1 && passes.last == 0, "\(passes)")
            #expect(zip(passes.dropLast(), passes.dropLast().dropFirst()).allSatisfy { $0 < $1 }, "\(passes)")
            let reference = try TestEnvironment.reference("long")
            let (start, end) = (88_200, 154_350)
            let expected =
                Self.frames(reference, 0..<end) + Self.frames(reference, start..<end)
                + Self.frames(reference, start..<end)
                + reference.subdata(in: end * Self.bytesPerFrame..<reference.count)
            let difference = pcmDifference(try daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("a seek past the end plays on; a seek back before it loops again; bad ranges are refused with the reason")
        func seeksAndBadRanges() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"])
            for (arguments, expected) in [
                ([("start", JSONValue.number(3)), ("end", .number(3.05))], "badRequest"),
                ([("start", .number(5)), ("end", .number(2))], "badRequest"),
                ([("start", .number(2)), ("end", .number(99))], "badRequest"),
                ([("start", .number(-1)), ("end", .number(2))], "badRequest"),
                ([("start", .number(1)), ("end", .number(2)), ("count", .number(1001))], "badRequest"),
                ([("start", .number(1)), ("end", .number(2)), ("count", .number(1.5))], "badRequest"),
                ([("start", .number(1))], "badRequest"),
            ] {
                let reply = try daemon.call("setLoopRange", arguments)
                #expect(reply["status"]?.stringValue == expected, "\(arguments): \(reply.serialized)")
                #expect(reply["message"]?.stringValue?.isEmpty == false)
            }
            // Endless from 1 to 2 s, set while at 30 s: it waits; a seek to 1.5 s loops twice, then off.
            _ = try daemon.call("changePlaybackPosition", [("position", .number(30))])
            _ = try daemon.call("setLoopRange", [("start", .number(1)), ("end", .number(2))])
            #expect(try daemon.nowPlaying()["loopRange"]?["count"]?.numberValue == 0)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(1.5))])
            _ = try daemon.call("clearLoopRange")
            #expect(try daemon.nowPlaying()["loopRange"] == nil)
            _ = try daemon.call("play")
            try events.waitForEvent(timeout: 30) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let reference = try TestEnvironment.reference("long")
            let difference = pcmDifference(
                try daemon.captured(), Self.frames(reference, 66_150..<(reference.count / 4)))
            #expect(difference == nil, "cleared before playing: the item from 1.5 s on. \(difference ?? "")")
        }

        @Test(
            "on a paced device each pass is announced when heard; cleared while playing, the loop ends and the item plays on from its end, sample-exactly"
        )
        func clearedWhilePlaying() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3"])
            _ = try daemon.call("setLoopRange", [("start", .number(0.5)), ("end", .number(1))])
            _ = try daemon.call("play")
            // Passes of 0.5 s, shorter than the device's buffer: once the device plays (before
            // that, changes wait for its start and are announced together), each pass is
            // announced on its own, in order.
            try events.waitForState("playing")
            var announced: [Double] = []
            try events.waitForEvent(timeout: 30) { event in
                guard event["changes"]?.arrayValue?.contains(.string("loop")) == true,
                    let pass = event["nowPlaying"]?["loopRange"]?["pass"]?.numberValue
                else { return false }
                announced.append(pass)
                return announced.count >= 3
            }
            #expect(zip(announced, announced.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(announced)")
            #expect(try daemon.call("clearLoopRange")["status"]?.stringValue == "success")
            try events.waitForEvent(timeout: 30) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            // Wherever the pass playing was cut (the decoder was passes ahead: the pipeline
            // restarts at the frame heard), the capture ends with the item from 1 s on.
            let reference = try TestEnvironment.reference("one")
            let captured = try daemon.captured()
            let tail = reference.subdata(in: 44_100 * Self.bytesPerFrame..<reference.count)
            #expect(captured.count > reference.count + 2 * 22_050 * Self.bytesPerFrame, "passes were played")
            #expect(pcmDifference(captured.suffix(tail.count), tail) == nil)
        }

        @Test("without an item there is nothing to loop; clearing when none is set does nothing")
        func noItem() throws {
            let daemon = try DaemonProcess()
            let reply = try daemon.call("setLoopRange", [("start", .number(1)), ("end", .number(2))])
            #expect(reply["status"]?.stringValue == "noActionableNowPlayingItem")
            #expect(try daemon.call("clearLoopRange")["status"]?.stringValue == "success")
        }
    }
}
