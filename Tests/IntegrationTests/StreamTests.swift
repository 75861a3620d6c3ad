import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Items by `http://` and `https://` URL (issue 36), from `Tests/servers/stream_server.py`
    /// on 127.0.0.1: the captured PCM against the reference decoder, ICY titles, and faults.
    @Suite struct Streams {
        static let bytesPerFrame = 4

        private func enqueueURL(_ daemon: DaemonProcess, _ url: String, play: Bool = false) throws -> JSONValue {
            try daemon.call("enqueue", [("items", .array([.string(url)])), ("play", .bool(play))])
        }

        private func reason(_ reply: JSONValue) -> String {
            reply["rejected"]?.arrayValue?.first?["reason"]?.stringValue ?? "(none: \(reply.serialized))"
        }

        /// Plays `url` (the fixture `long.mp3`) from `position` and checks the capture equals
        /// `mpg123 --gapless -s` of the file from there, byte for byte.
        @discardableResult
        private func playsExactly(_ url: String, from position: Double, extra: [String] = []) throws -> DaemonProcess {
            let daemon = try DaemonProcess(device: "playbackd_capture", arguments: extra)
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try enqueueURL(daemon, url)
            #expect(
                reply["status"]?.stringValue == "success" && reply["rejected"]?.arrayValue == [], "\(reply.serialized)")
            let item = try daemon.nowPlaying()
            #expect(item["duration"]?.numberValue == 40, "the length from the Xing header: \(item.serialized)")
            let frame = Int((position * 44_100).rounded())
            if position > 0 {
                let seek = try daemon.call("changePlaybackPosition", [("position", .number(position))])
                #expect(seek["position"]?.numberValue == Double(frame) / 44_100, "\(seek.serialized)")
            }
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped", timeout: 60)
            let reference = try TestEnvironment.reference("long")
            let difference = pcmDifference(
                try daemon.captured(), reference.subdata(in: frame * Self.bytesPerFrame..<reference.count))
            #expect(difference == nil, "\(difference ?? "")")
            return daemon
        }

        @Test(
            "a file over HTTP plays byte for byte as mpg123 decodes it, names playbackd as its agent, logs no password")
        func fileOverHTTP() throws {
            let server = try StreamServer()
            let url = server.url("files/long.mp3").replacingOccurrences(of: "://", with: "://listener:s3cret@")
            let daemon = try playsExactly(url, from: 0)
            let requests = server.lines(starting: "request /files/long.mp3")
            #expect(requests.contains { $0.contains("ua=playbackd/") && $0.contains("auth=Basic") }, "\(requests)")
            #expect(!daemon.stderrText.contains("s3cret"), "\(daemon.stderrText)")
        }

        @Test("a seek to 7.25 s in an MP3 file over HTTP is exact")
        func seekOverHTTP() throws {
            let server = try StreamServer()
            try playsExactly(server.url("files/long.mp3"), from: 7.25)
        }

        /// Seeks 50 s into a minute of pink noise as FLAC (4.7 MB, beyond what the input keeps)
        /// served at `kind/noise.flac`, plays to the end, and checks the capture against
        /// `flac -d` from there; returns the server's requests.
        private func deepSeekInFLAC(_ kind: String) throws -> [String] {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let flac = directory + "/noise.flac"
            let sox = try CommandLineRun.run(
                executable: "/usr/bin/sox",
                ["-n", "-r", "44100", "-c", "2", "-b", "16", flac, "synth", "60", "pinknoise", "vol", "0.3"])
            #expect(sox.status == 0, "\(sox.stderr)")
            let decoded = try CommandLineRun.run(
                executable: "/usr/bin/flac",
                [
                    "-d", "-s", "--force-raw-format", "--endian=little", "--sign=signed", "-o", directory + "/ref.raw",
                    flac,
                ])
            #expect(decoded.status == 0, "\(decoded.stderr)")
            let server = try StreamServer(root: directory)
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try enqueueURL(daemon, server.url(kind + "/noise.flac"))
            #expect(try daemon.nowPlaying()["duration"]?.numberValue == 60)
            let seek = try daemon.call("changePlaybackPosition", [("position", .number(50))])
            #expect(seek["position"]?.numberValue == 50, "\(seek.serialized)")
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped", timeout: 60)
            let reference = try Data(contentsOf: URL(fileURLWithPath: directory + "/ref.raw"))
            let difference = pcmDifference(
                try daemon.captured(), reference.subdata(in: 50 * 44_100 * Self.bytesPerFrame..<reference.count))
            #expect(difference == nil, "\(difference ?? "")")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: flac)[.size] as? Int)
            return server.lines(starting: "request").map { $0.replacingOccurrences(of: "\(size)", with: "SIZE") }
        }

        @Test("a seek 50 s into a minute of FLAC over HTTP is a Range request past what the input holds, and exact")
        func deepSeekByRange() throws {
            let requests = try deepSeekInFLAC("files")
            let deep = requests.compactMap {
                $0.split(separator: "bytes=").last.flatMap { Int($0.prefix { $0.isNumber }) }
            }
            #expect(deep.contains { $0 > 3_000_000 }, "\(requests)")
        }

        @Test("from a server that takes no ranges, the same seek reads the file again up to it, and is exact")
        func deepSeekWithoutRanges() throws {
            let requests = try deepSeekInFLAC("norange")
            #expect(requests.allSatisfy { $0.contains("range=None") }, "\(requests)")
        }

        @Test("over HTTPS with a certificate the test makes and trusts (tls-ca-file), after two redirects")
        func fileOverHTTPS() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let openssl = try CommandLineRun.run(
                executable: "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory + "/key.pem", "-out",
                    directory + "/cert.pem",
                ])
            #expect(openssl.status == 0, "\(openssl.stderr)")
            let server = try StreamServer(certificate: directory + "/cert.pem", key: directory + "/key.pem")
            try playsExactly(
                server.url("redirect/2/files/long.mp3"), from: 0, extra: ["--tls-ca-file", directory + "/cert.pem"])

            // Without the certificate trusted, the item is refused with the reason.
            let untrusting = try DaemonProcess(device: "null")
            let refused = try enqueueURL(untrusting, server.url("files/long.mp3"))
            #expect(reason(refused).contains("certificate"), "\(refused.serialized)")
        }

        @Test(
            "a live stream: ICY titles reach nowPlaying (pushed) and MPRIS when heard; no duration; seeking disabled")
        func liveStream() throws {
            let server = try StreamServer()
            let bus = try SessionBus()
            let daemon = try DaemonProcess(device: "playbackd_capture", environment: bus.environment)
            #expect(try bus.waitForName("org.mpris.MediaPlayer2.playbackd", timeout: 10) != nil)
            // The real playerctl, following the player's metadata as a status bar would.
            let mpris = try LineFollower(
                [
                    "/usr/bin/playerctl", "-p", "playbackd", "--follow", "metadata", "--format",
                    "{{artist}} - {{title}} | {{album}} | {{mpris:length}}",
                ], environment: bus.environment)
            let url = server.url("live/long.mp3?metaint=4000&titles=Alpha%20-%20One|Beta%20-%20Two&every=1&rate=16000")
            let reply = try enqueueURL(daemon, url)
            #expect(
                reply["status"]?.stringValue == "success" && reply["rejected"]?.arrayValue == [], "\(reply.serialized)")
            let events = try daemon.connect()
            _ = try events.subscribe()
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            let beta = try events.waitForEvent(timeout: 30) { $0["nowPlaying"]?["title"]?.stringValue == "Two" }
            let heard = Date().timeIntervalSince1970
            let now = try #require(beta["nowPlaying"])
            #expect(now["artist"]?.stringValue == "Beta")
            #expect(now["duration"] == .null, "\(now.serialized)")
            // Each connection (the probe's, then playback's) logs when it first carried the
            // title: the latest before the title was seen is playback's.
            let sent = try #require(
                server.lines(starting: "title Beta - Two ").compactMap { Double($0) }.filter { $0 <= heard }.max())
            // A title is announced when its audio is heard: the capture device's 1 s buffer after
            // the block arrived (0.99 - 1.003 s measured, which failed a 1 s bound on a clean
            // clone). The bound leaves a busy machine room; the figure is in the message.
            #expect(heard - sent < 3, "the title was sent at \(sent), seen at \(heard)")
            let followed = try #require(mpris.waitForLine(starting: "Beta - Two", timeout: 10))
            let mprisDelay = followed.arrived.timeIntervalSince1970 - sent
            #expect(mprisDelay < 3, "MPRIS had it \(mprisDelay) s after the block was sent")
            #expect(followed.text == " | Fixture Album | ", "no mpris:length: \(followed.text)")
            let commands = try daemon.call("commands")["commands"]?.arrayValue ?? []
            let disabled = commands.filter { $0["enabled"]?.boolValue == false }.compactMap {
                $0["command"]?.stringValue
            }
            #expect(
                Set(disabled).isSuperset(of: ["changePlaybackPosition", "skipForward", "skipBackward"]), "\(disabled)")
            let seek = try daemon.call("changePlaybackPosition", [("position", .number(5))])
            #expect(seek["status"]?.stringValue == "commandDisabled", "\(seek.serialized)")
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")
        }

        @Test(
            "each fault is refused with its reason, and the socket answers meanwhile",
            arguments: [
                ("status/404", "HTTP 404"), ("status/500", "HTTP 500"), ("html", "text/html, not audio"),
                ("garbage", "not an MPEG audio file"), ("stall", "no data from the server for 2 s"),
                ("silent", "no data from the server for 2 s"), ("endless", "headers did not end"),
                ("redirect/6/files/long.mp3", "redirect"),
            ])
        func faults(path: String, expected: String) throws {
            let server = try StreamServer()
            let daemon = try DaemonProcess(device: "null", arguments: ["--stream-stall-timeout", "2"])
            _ = try daemon.enqueue(["one.mp3"])
            let pending = try daemon.connect()
            try pending.send(
                .object([("command", .string("enqueue")), ("items", .array([.string(server.url(path))]))]))
            // While the prober waits on the server, the socket answers at once.
            for _ in 0..<5 {
                let start = Date()
                #expect(try daemon.nowPlaying()["queueCount"]?.numberValue == 1)
                #expect(Date().timeIntervalSince(start) < 0.5)
            }
            let reply = try #require(try pending.readLine(timeout: 60))
            #expect(reason(reply).contains(expected), "\(reply.serialized)")
            #expect(try daemon.nowPlaying()["queueCount"]?.numberValue == 1, "nothing was lost")
        }

        @Test(
            "a server that stalls when playback connects holds neither play nor the socket; the item ends, the queue stays"
        )
        func stallAtPlay() throws {
            let server = try StreamServer()
            let daemon = try DaemonProcess(device: "playbackd_capture", arguments: ["--stream-stall-timeout", "2"])
            let events = try daemon.connect()
            _ = try events.subscribe()
            let reply = try enqueueURL(daemon, server.url("once/long.mp3"))
            #expect(reply["rejected"]?.arrayValue == [], "the probe was served: \(reply.serialized)")
            var slowest = 0.0
            var start = Date()
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            slowest = max(slowest, Date().timeIntervalSince(start))
            for _ in 0..<20 {
                start = Date()
                #expect(try daemon.nowPlaying()["queueCount"]?.numberValue == 1)
                slowest = max(slowest, Date().timeIntervalSince(start))
                usleep(100_000)  // asked throughout the two seconds the server sends nothing
            }
            #expect(slowest < 0.5, "the slowest round trip took \(slowest) s")
            try events.waitForState("stopped", timeout: 30)
            #expect(try daemon.call("queue")["count"]?.numberValue == 1, "nothing was lost")
            #expect(daemon.stderrText.contains("no data from the server for 2 s"), "\(daemon.stderrText)")
        }

        @Test("a live stream whose connection drops reconnects and plays on")
        func liveReconnects() throws {
            let server = try StreamServer()
            let daemon = try DaemonProcess(device: "playbackd_capture")
            _ = try enqueueURL(
                daemon, server.url("livedrop/long.mp3?metaint=4000&titles=Drop&rate=32000&after=0.7"), play: true)
            // The probe, then playback's connection and two reconnections after 0.7 s each.
            try waitUntil(timeout: 30) { server.lines(starting: "request /livedrop/").count >= 4 }
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")
        }

        @Test("a stream in the queue survives a restart, and plays on from the kept position byte for byte")
        func resumesAStream() throws {
            let server = try StreamServer()
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: stateHome) }
            let url = server.url("files/long.mp3")
            let first = try DaemonProcess(device: "null", environment: ["XDG_STATE_HOME": stateHome])
            _ = try enqueueURL(first, url)
            _ = try first.call("changePlaybackPosition", [("position", .number(20))])
            #expect(first.terminate() == 0)
            let requestsBefore = server.lines(starting: "request").count

            let second = try DaemonProcess(device: "playbackd_capture", environment: ["XDG_STATE_HOME": stateHome])
            let restored = try second.nowPlaying()
            #expect(restored["assetURL"]?.stringValue == url, "\(restored.serialized)")
            #expect(restored["elapsed"]?.numberValue == 20)
            #expect(server.lines(starting: "request").count == requestsBefore, "restoring asked the server nothing")
            let events = try second.connect()
            _ = try events.subscribe()
            #expect(try second.call("play")["status"]?.stringValue == "success")
            try events.waitForState("stopped", timeout: 60)
            let reference = try TestEnvironment.reference("long")
            let difference = pcmDifference(
                try second.captured(), reference.subdata(in: 20 * 44_100 * Self.bytesPerFrame..<reference.count))
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("playlists of stations: a local PLS and an M3U fetched over HTTP; their titles name the stations")
        func playlists() throws {
            let media = try StreamServer()
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/long.mp3", withDestinationPath: TestEnvironment.fixture("long.mp3"))
            let live = media.url("live/long.mp3?metaint=4000&titles=Song&rate=16000")
            try "[playlist]\nNumberOfEntries=1\nFile1=\(live)\nTitle1=Radio Local\nLength1=-1\nVersion=2\n"
                .write(toFile: directory + "/stations.pls", atomically: true, encoding: .utf8)
            try "#EXTM3U\n#EXTINF:-1,Radio Fetched\n\(live)\n#EXTINF:40,Relative\nlong.mp3\n/etc/hostname\n"
                .write(toFile: directory + "/list.m3u", atomically: true, encoding: .utf8)
            let lists = try StreamServer(root: directory)
            let daemon = try DaemonProcess(device: "null")
            let reply = try daemon.call(
                "enqueue",
                [("items", .array([.string(directory + "/stations.pls"), .string(lists.url("files/list.m3u"))]))])
            let items = try daemon.call("queue")["items"]?.arrayValue ?? []
            #expect(
                items.map { $0["album"]?.stringValue } == ["Radio Local", "Radio Fetched", "Fixture Album"],
                "\(reply.serialized)")
            #expect(items.map { $0["duration"] } == [.null, .null, .number(40)], "\(reply.serialized)")
            #expect(items.last?["assetURL"]?.stringValue == lists.url("files/long.mp3"))
            #expect(reason(reply).contains("only http(s) URLs can be played"), "\(reply.serialized)")
        }

        @Test("a long item by URL keeps its bookmark, as a file does")
        func bookmarkByURL() throws {
            let server = try StreamServer()
            let book = server.url("files/book12.mp3")
            let daemon = try DaemonProcess(device: "null", arguments: ["--resume", "off"])
            _ = try enqueueURL(daemon, book)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(300))])
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == 0)
            _ = try daemon.call(
                "enqueue", [("items", .array([.string(book)])), ("replace", .bool(true))])
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == 300)
            let listed = try daemon.call("bookmarks")["bookmarks"]?.arrayValue ?? []
            #expect(listed.first?["path"]?.stringValue == book, "\(listed)")
        }

        @Test("nothing listening, or no such host: refused with the reason")
        func unreachable() throws {
            let daemon = try DaemonProcess(device: "null")
            let refused = try enqueueURL(daemon, "http://127.0.0.1:9/a.mp3")
            #expect(reason(refused).contains("onnect"), "\(refused.serialized)")
            let unknown = try enqueueURL(daemon, "http://no-such-host.invalid/a.mp3")
            #expect(reason(unknown).contains("resolve"), "\(unknown.serialized)")
        }

        @Test("a file whose connection drops half-way resumes with Range and still plays byte for byte")
        func dropResumes() throws {
            let server = try StreamServer()
            // Every response that would cross the middle is cut there: playback goes on from it.
            try playsExactly(server.url("drop/long.mp3"), from: 0)
            let cut = try #require(server.lines(starting: "cut ").first)
            let resumed = server.lines(starting: "request /drop/long.mp3 range=bytes=\(cut)-")
            #expect(!resumed.isEmpty, "\(server.lines(starting: "request"))")
        }
    }
}
