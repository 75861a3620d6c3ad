import ControlProtocol
import Foundation
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The scrobbling services' requests and what their answers mean, as their documentation
/// states; the secret files' rule.
@Suite struct ScrobbleClientTests {
    func listen(artists: [String] = ["Björk"], title: String? = "Jóga") -> Listen {
        var listen = Listen(
            listenedAt: 1_700_000_000.75, seconds: nil, ending: nil, isListen: true, isPractice: false,
            path: "/music/joga.flac", title: title, artists: artists, album: "Homogenic", albumArtist: nil,
            trackNumber: 3, duration: 305.4)
        listen.identifiers = [
            "musicBrainzTrackID": "0b6e8a4e-4d4f-4a0e-9d4e-1c2f0a9e1b11",
            "musicBrainzArtistID": "87c5dedd-371d-4a53-9f7f-80522fb7f3cb; 3f0c5e4a-0000-4000-8000-000000000001",
            "isrc": "GBAAN9700123",
        ]
        return listen
    }

    @Test("MD5 by libcrypto: the RFC 1321 vectors")
    func md5() {
        #expect(MD5.hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    }

    @Test("api_sig: the parameters sorted by name, each name then its value, then the secret; format left out")
    func lastFMSignature() {
        let signer = LastFMSigner(root: "http://x/2.0/", apiKey: "xxx", secret: "ilovecher")
        #expect(
            signer.signature([("token", "yyy"), ("method", "auth.getSession"), ("api_key", "xxx")])
                == "6fbd8819d5d7464f4d946b8ea5eeab92")
        let request = signer.request("auth.getSession", [("token", "yyy")])
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        #expect(body.contains("api_sig=6fbd8819d5d7464f4d946b8ea5eeab92") && body.hasSuffix("&format=json"))
        let utf8 = LastFMSigner(root: "", apiKey: "", secret: "sec").signature([("track", "Jóga"), ("artist", "Björk")])
        #expect(utf8 == "4c3db53cc0f348f99a8d6b0136a537bc")
        #expect(FormEncoding.escape("a b&c=ö~") == "a%20b%26c%3D%C3%B6~")
    }

    @Test("track.scrobble: each listen's fields under its index; the first artist; whole seconds")
    func lastFMBatch() {
        let parameters = Dictionary(
            uniqueKeysWithValues: LastFMClient.parameters(listen(artists: ["Björk", "Guest"]), index: 7))
        #expect(parameters["artist[7]"] == "Björk" && parameters["track[7]"] == "Jóga")
        #expect(parameters["timestamp[7]"] == "1700000000" && parameters["duration[7]"] == "305")
        #expect(parameters["mbid[7]"] == "0b6e8a4e-4d4f-4a0e-9d4e-1c2f0a9e1b11")
        #expect(LastFMClient.parameters(listen(), index: nil).allSatisfy { !$0.0.contains("[") && $0.0 != "timestamp" })
    }

    @Test(
        "ListenBrainz's payload: listened_at whole seconds, never in playing_now; the MBIDs and ISRC; the player named")
    func listenBrainzPayload() throws {
        let single = ListenBrainzClient.payload(listen(artists: ["Björk", "Guest"]), type: .single)
        #expect(single["listened_at"]?.numberValue == 1_700_000_000)
        let metadata = single["track_metadata"]
        #expect(metadata?["artist_name"]?.stringValue == "Björk, Guest")
        #expect(metadata?["release_name"]?.stringValue == "Homogenic")
        let info = metadata?["additional_info"]
        #expect(info?["duration_ms"]?.numberValue == 305_400 && info?["tracknumber"]?.numberValue == 3)
        #expect(info?["recording_mbid"]?.stringValue == "0b6e8a4e-4d4f-4a0e-9d4e-1c2f0a9e1b11")
        #expect(info?["artist_mbids"]?.arrayValue?.count == 2 && info?["isrc"]?.stringValue == "GBAAN9700123")
        #expect(info?["media_player"]?.stringValue == "playbackd" && info?["submission_client"] != nil)
        #expect(ListenBrainzClient.payload(listen(), type: .playingNow)["listened_at"] == nil)
        let client = ListenBrainzClient(root: "http://host/", token: "t0k")
        let request = client.submission([listen(), listen()])
        #expect(request.url == "http://host/1/submit-listens" && request.headers.contains("Authorization: Token t0k"))
        #expect(try JSONParser.parse(request.body ?? [])["listen_type"]?.stringValue == "import")
        var huge = listen()
        huge.title = String(repeating: "x", count: 11_000)
        #expect(client.unsendable(huge)?.contains("10240") == true && client.unsendable(listen()) == nil)
    }

    @Test("ListenBrainz's answers: 400 refuses, 401 stops, 429 and 5xx wait, a used-up limit pauses")
    func listenBrainzAnswers() {
        let client = ListenBrainzClient(root: "http://host", token: "t")
        let reply = { (status: Int, headers: [String: String]) in
            client.answer(
                HTTPExchange.Reply(status: status, headers: headers, body: Array(#"{"error":"bad"}"#.utf8)), count: 1)
        }
        #expect(reply(200, [:]) == ScrobbleAnswer(.accepted(refused: [:])))
        #expect(reply(400, [:]).verdict == .refused("HTTP 400: bad"))
        #expect(reply(401, [:]).verdict == .unauthorised("HTTP 401: bad"))
        #expect(reply(429, ["x-ratelimit-reset-in": "7"]).verdict == .later("HTTP 429: bad", after: 7))
        #expect(reply(503, [:]).verdict == .later("HTTP 503: bad", after: nil))
        #expect(reply(200, ["x-ratelimit-remaining": "0", "x-ratelimit-reset-in": "3"]).pause == 3)
        #expect(reply(200, ["x-ratelimit-remaining": "4", "x-ratelimit-reset-in": "3"]).pause == nil)
    }

    @Test("Last.fm's answers: a session refused stops; ignored scrobbles are set aside; the daily limit waits")
    func lastFMAnswers() {
        let client = LastFMClient(signer: LastFMSigner(root: "", apiKey: "k", secret: "s"), sessionKey: "sk")
        let reply = { (body: String, count: Int) in
            client.answer(HTTPExchange.Reply(status: 200, headers: [:], body: Array(body.utf8)), count: count)
        }
        #expect(
            reply(#"{"error":9,"message":"Invalid session key"}"#, 1).verdict
                == .unauthorised("error 9: Invalid session key"))
        #expect(reply(#"{"error":11,"message":"offline"}"#, 1).verdict == .later("error 11: offline", after: nil))
        let two =
            ##"{"scrobbles":{"scrobble":[{"ignoredMessage":{"code":"0"}},{"ignoredMessage":{"code":"3","#text":"too old"}}]}}"##
        #expect(reply(two, 2).verdict == .accepted(refused: [1: "ignored (code 3): too old"]))
        let one = #"{"scrobbles":{"scrobble":{"ignoredMessage":{"code":"0"}}}}"#
        #expect(reply(one, 1).verdict == .accepted(refused: [:]))
        let limit = #"{"scrobbles":{"scrobble":{"ignoredMessage":{"code":"5"}}}}"#
        #expect(reply(limit, 1).verdict == .later("the daily scrobble limit is reached", after: 3600))
    }

    @Test("A secret file others may read is refused, naming the file and the fix; its first line is the secret")
    func secretFiles() throws {
        let path = NSTemporaryDirectory() + "playbackd-secret-\(UUID().uuidString)"
        defer { unlink(path) }
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(" s3cret \nsecond line\n".utf8), attributes: [.posixPermissions: 0o640])
        guard case .failure(let problem) = SecretFile.read(path) else {
            Issue.record("a file of mode 0640 was read")
            return
        }
        #expect(problem.description.contains(path) && problem.description.contains("chmod 600"))
        #expect(!problem.description.contains("s3cret"))
        chmod(path, 0o600)
        #expect(try SecretFile.read(path).get() == "s3cret")
        #expect(SecretFile.write("new", to: path) == nil)
        #expect(try SecretFile.read(path).get() == "new")
        if case .success = SecretFile.read(path + ".missing") { Issue.record("a missing file was read") }
    }
}
