import ControlProtocol
import Testing

@Suite struct RequestDecoderTests {
    private func decode(_ text: String) -> Result<Request, RequestDecoder.Failure> {
        RequestDecoder.decode(Array(text.utf8))
    }

    @Test(
        "valid requests become typed commands",
        arguments: [
            (#"{"command":"play"}"#, Command.player(.play)),
            (#"{"command":"skipForward"}"#, .player(.skipForward(interval: nil))),
            (#"{"command":"skipBackward","interval":30}"#, .player(.skipBackward(interval: 30))),
            (
                #"{"command":"changePlaybackPosition","position":12.5}"#,
                .player(.changePlaybackPosition(position: 12.5))
            ),
            (
                #"{"command":"enqueue","items":["/a.mp3"],"play":true}"#,
                .enqueue(paths: ["/a.mp3"], placement: .end, replace: false, play: true)
            ),
            (
                #"{"command":"enqueue","items":["/a"],"at":2}"#,
                .enqueue(paths: ["/a"], placement: .index(2), replace: false, play: false)
            ),
            (
                #"{"command":"enqueue","items":["/a"],"next":true}"#,
                .enqueue(paths: ["/a"], placement: .next, replace: false, play: false)
            ),
            (#"{"command":"changeRepeatMode","mode":"one"}"#, .player(.changeRepeatMode(.one))),
            (#"{"command":"changeShuffleMode","mode":"items"}"#, .player(.changeShuffleMode(.items))),
            (#"{"command":"remove","index":0}"#, .player(.remove(index: 0, count: 1))),
            (#"{"command":"remove","index":3,"count":2}"#, .player(.remove(index: 3, count: 2))),
            (#"{"command":"move","from":4,"to":0}"#, .player(.move(from: 4, to: 0))),
            (#"{"command":"jump","index":1}"#, .player(.jump(index: 1))),
            (#"{"command":"queue"}"#, .player(.queue(offset: 0, limit: 1_000))),
            (#"{"command":"queue","offset":10,"limit":5}"#, .player(.queue(offset: 10, limit: 5))),
            (
                #"{"command":"setCommandEnabled","name":"nextTrack","enabled":false}"#,
                .player(.setCommandEnabled(.nextTrack, enabled: false))
            ),
        ])
    func valid(_ text: String, _ command: Command) throws {
        #expect(try decode(text).get().command == command)
    }

    @Test(
        "out-of-range and unknown values are refused with the argument named",
        arguments: [
            (
                #"{"command":"changeRepeatMode","mode":"sometimes"}"#,
                #"'mode' must be one of "off", "one", "all", got "sometimes""#
            ),
            (#"{"command":"changeShuffleMode","mode":"on"}"#, #"'mode' must be one of "off", "items", got "on""#),
            (#"{"command":"jump","index":-1}"#, "'index' must be a whole number >= 0, got -1"),
            (#"{"command":"jump","index":1.5}"#, "'index' must be a whole number >= 0, got 1.5"),
            (#"{"command":"move","from":0,"to":1e9}"#, "'to' must be a whole number >= 0, got 1000000000"),
            (#"{"command":"remove","index":0,"count":0}"#, "'count' must be at least 1"),
            (#"{"command":"queue","limit":0}"#, "'limit' must be from 1 to 1000, got 0"),
            (#"{"command":"enqueue","items":["/a"],"at":0,"next":true}"#, "'at' and 'next' cannot be combined"),
        ])
    func refused(_ text: String, _ message: String) {
        guard case .failure(let failure) = decode(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(failure.error.message == message)
    }

    @Test("ids of both kinds are kept")
    func ids() throws {
        #expect(try decode(#"{"id":"k","command":"queue"}"#).get().id == .string("k"))
        #expect(try decode(#"{"id":3,"command":"queue"}"#).get().id == .number(3))
    }

    @Test("every catalog argument is type-checked")
    func typeChecks() {
        for spec in CommandCatalog.all {
            for argument in spec.arguments {
                let wrong: JSONValue = argument.kind == .number ? .string("x") : .number(1)
                let line = JSONValue.object([("command", .string(spec.name.rawValue)), (argument.name, wrong)])
                    .serialized
                guard case .failure(let failure) = decode(line) else {
                    Issue.record("\(spec.name).\(argument.name) accepted \(wrong)")
                    continue
                }
                #expect(failure.error.message.contains("'\(argument.name)' must be"), "\(failure.error.message)")
            }
        }
    }
}
