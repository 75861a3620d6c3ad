import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The listening history on a device paced in real time: each hearing recorded as it ends,
    /// a listen on disk the moment it counts (`ListenRule`), through a kill -9.
    @Suite struct ListeningHistory {
        @Test(
            "20 s and 40 s items at rate 3: the first recorded and no listen; the second a listen once 20 s are heard, kept through kill -9; ListenBrainz told of both as they play, and of the listen once, when it counts"
        )
        func listensSurviveAKill() throws {
            let (server, scrobbling) = try ScrobbleStandIn.listenBrainz(token: "history-token")
            let world = try HearingEvents.World("history", ["sine1k.mp3", "long.mp3"], arguments: scrobbling)
            _ = try world.daemon.call("changePlaybackRate", [("rate", .number(3))])
            try world.play()
            try world.waitForHeard(1)
            // The second item's listen, as soon as the history has it, and where it was heard then.
            var listens: [JSONValue] = []
            var heardThen = 0.0
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                listens = try world.daemon.call("listeningHistory")["listens"]?.arrayValue ?? []
                if listens.count == 2 && listens[0]["listen"]?.boolValue == true {
                    heardThen = extrapolated(try world.daemon.nowPlaying())
                    break
                }
                usleep(20_000)
            }
            #expect(listens.count == 2, "two hearings: \(listens.map(\.serialized))")
            #expect(heardThen >= 20 - HearingEvents.tolerance, "counted at \(heardThen) s: 20 s of 40 are needed")
            let first = listens.count == 2 ? listens[1] : .null
            #expect(first["listen"]?.boolValue == false && first["ending"]?.stringValue == "finished")
            // ListenBrainz: each item as it became audible, the listen once, as it counted.
            try waitUntil { server.accepted.count >= 3 }
            let types = server.accepted.compactMap { $0["type"]?.stringValue }
            #expect(
                types == ["playing_now", "playing_now", "single"],
                "\(types); audible \(world.audible.map(\.serialized))")
            let began = world.audible.compactMap { $0["began"]?.numberValue }
            let received = server.accepted.compactMap { $0["at"]?.numberValue }
            #expect(
                began.count == 2 && received.count == 3 && zip(began, received).allSatisfy { $1 - $0 < 2 },
                "playing_now within 2 s of each start: began \(began), received \(received)")
            let single = server.accepted.last?["listens"]?.arrayValue?.first ?? .null
            #expect(single["listened_at"]?.numberValue == began.last.map { $0.rounded(.down) })
            #expect(single["track_metadata"]?["track_name"]?.stringValue == "Long")
            #expect(
                single["track_metadata"]?["additional_info"]?["duration_ms"]?.numberValue
                    == (world.durations[1] * 1000).rounded())
            #expect(server.refused.isEmpty, "\(server.refused.map(\.serialized))")
            #expect(abs((first["seconds"]?.numberValue ?? 0) - world.durations[0]) <= HearingEvents.tolerance)
            world.daemon.signal(SIGKILL)
            _ = world.daemon.waitForExit(timeout: 10)

            let again = try DaemonProcess(environment: ["XDG_STATE_HOME": world.daemon.directory + "/state"])
            let kept = try again.call("listeningHistory")["listens"]?.arrayValue ?? []
            #expect(kept.count == 2 && kept.first?["listen"]?.boolValue == true, "\(kept.map(\.serialized))")
            #expect(kept.first?["seconds"] == nil, "killed while heard: its end was never written")
            #expect(kept.first?["assetURL"]?.stringValue?.hasSuffix("/long.mp3") == true)
            // `listenedAt` is when each became audible, as the pushed events said.
            let listenedAt = kept.reversed().compactMap { $0["listenedAt"]?.numberValue }
            #expect(
                began.count == 2 && listenedAt.count == 2 && zip(began, listenedAt).allSatisfy { abs($0 - $1) < 0.001 },
                "began \(began), listened at \(listenedAt)")
        }

        @Test(
            "at rate 2, a seek past most of a 40 s item, then repeat-one with a pause: the first pass no listen, the second one listen; ListenBrainz told of each pass and of the listen once, dated when the pass began"
        )
        func passesAndSeeks() throws {
            let (server, scrobbling) = try ScrobbleStandIn.listenBrainz(token: "rules-token")
            let world = try HearingEvents.World("rules", ["long.mp3"], arguments: scrobbling)
            _ = try world.daemon.call("changePlaybackRate", [("rate", .number(2))])
            _ = try world.daemon.call("changeRepeatMode", [("mode", .string("one"))])
            try world.play()
            _ = try world.daemon.call("changePlaybackPosition", [("position", .number(32))])
            try world.waitForHeard(1)  // the first pass: 8 s and a little heard
            usleep(3_000_000)
            _ = try world.pause(after: 0)  // in place: the device is kept, the pipeline goes on
            usleep(1_000_000)
            try world.play()
            try waitUntil(timeout: 40) { server.accepted.contains { $0["type"]?.stringValue == "single" } }
            _ = try world.daemon.call("stop")
            let types = server.accepted.compactMap { $0["type"]?.stringValue }
            #expect(
                types == ["playing_now", "playing_now", "single"],
                "\(types); audible \(world.audible.map(\.serialized))")
            let began = world.audible.compactMap { $0["began"]?.numberValue }
            let single = server.accepted.last?["listens"]?.arrayValue?.first ?? .null
            #expect(began.count >= 2 && single["listened_at"]?.numberValue == began[1].rounded(.down), "began \(began)")
            #expect(
                (world.heard.first?["seconds"]?.numberValue ?? 99) < 20,
                "the first pass: \(world.heard.map(\.serialized))")
            let history = try world.daemon.call("listeningHistory")["listens"]?.arrayValue ?? []
            #expect(history.map { $0["listen"]?.boolValue == true } == [true, false], "\(history.map(\.serialized))")
            #expect(server.refused.isEmpty)
        }
    }
}
