import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Acceptance 5: one event per change, nothing while nothing changes.
    @Suite struct Subscription {
        @Test("each change pushes exactly one event; 5 s of unchanged pause pushes none")
        func oneEventPerChangeAndSilenceWhenIdle() throws {
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            let events = try daemon.connect()
            let first = try events.subscribe()
            #expect(first["state"]?.stringValue == "stopped")
            #expect(first["title"] == nil)

            _ = try daemon.enqueue(["long.mp3"])
            try expectOneEvent(events, changes: ["item", "queue"], state: "stopped")
            _ = try daemon.call("play")
            try expectStart(events, changes: ["state"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(20))])
            try expectStart(events, changes: ["position"])
            _ = try daemon.call("pause")
            try expectOneEvent(events, changes: ["state"], state: "paused")
            _ = try daemon.call("setCommandEnabled", [("name", .string("play")), ("enabled", .bool(false))])
            try expectOneEvent(events, changes: ["commands"], state: "paused")
            _ = try daemon.call("nowPlaying")
            #expect(try events.readLine(timeout: 5) == nil, "no event during 5 s of unchanged pause")
        }

        @Test("a subscriber that never reads is dropped; playback and other clients go on")
        func slowSubscriberIsDropped() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["long.mp3"])
            let stalled = try daemon.connect()
            _ = try stalled.subscribe()
            let other = try daemon.connect()
            let toggle: [JSONValue] = (0..<4000).map { index in
                .object([
                    ("command", .string("setCommandEnabled")), ("name", .string("skipForward")),
                    ("enabled", .bool(index % 2 == 0)),
                ])
            }
            for request in toggle {
                #expect(try other.request(request)["status"]?.stringValue == "success")
            }
            var lines = 0
            var disconnected = false
            do {
                while try stalled.readLine(timeout: 5) != nil { lines += 1 }
            } catch {
                disconnected = true
            }
            #expect(disconnected, "the stalled subscriber was disconnected")
            #expect(lines < 4000, "it did not get every event (\(lines))")
            #expect(try daemon.call("nowPlaying")["status"]?.stringValue == "success")
        }

        /// A start (play, or a seek while playing) is one event once the device plays. When the
        /// device took longer than the announcement timeout (a fresh PulseAudio null sink can),
        /// the start was announced with rate 0 and exactly one re-anchoring event follows.
        private func expectStart(
            _ client: ControlClient, changes: [String],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let started = try expectOneEvent(
                client, changes: changes, state: "playing", allowFollowUp: true,
                sourceLocation: sourceLocation)
            if started["nowPlaying"]?["rate"]?.numberValue == 0 {
                let anchor = try expectOneEvent(
                    client, changes: ["position"], state: "playing", sourceLocation: sourceLocation)
                #expect(anchor["nowPlaying"]?["rate"]?.numberValue == 1, sourceLocation: sourceLocation)
            } else {
                #expect(try client.readLine(timeout: 0.2) == nil, "exactly one event", sourceLocation: sourceLocation)
            }
        }

        /// Reads one event and checks it; unless `allowFollowUp`, checks that no second one follows.
        @discardableResult
        private func expectOneEvent(
            _ client: ControlClient, changes: [String], state: String, allowFollowUp: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> JSONValue {
            let event = try #require(try client.readLine(timeout: 5), sourceLocation: sourceLocation)
            #expect(event["event"]?.stringValue == "changed", sourceLocation: sourceLocation)
            let names = Set(event["changes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            #expect(names == Set(changes), "changes \(names)", sourceLocation: sourceLocation)
            #expect(event["nowPlaying"]?["state"]?.stringValue == state, sourceLocation: sourceLocation)
            if !allowFollowUp {
                #expect(try client.readLine(timeout: 0.2) == nil, "exactly one event", sourceLocation: sourceLocation)
            }
            return event
        }
    }
}
