import ControlProtocol
import Testing

@Suite struct RequestDecoderTests {
    private func decode(_ text: String) -> Result<Request, RequestDecoder.Failure> {
        RequestDecoder.decode(Array(text.utf8))
    }

    @Test(
        "valid requests become typed commands",
        arguments: [
            (#"{"command":"play"}"#, Command.play),
            (#"{"command":"skipForward"}"#, .skipForward(interval: nil)),
            (#"{"command":"skipBackward","interval":30}"#, .skipBackward(interval: 30)),
            (#"{"command":"changePlaybackPosition","position":12.5}"#, .changePlaybackPosition(position: 12.5)),
            (
                #"{"command":"enqueue","items":["/a.mp3"],"play":true}"#,
                .enqueue(paths: ["/a.mp3"], replace: false, play: true)
            ),
            (
                #"{"command":"setCommandEnabled","name":"nextTrack","enabled":false}"#,
                .setCommandEnabled(.nextTrack, enabled: false)
            ),
        ])
    func valid(_ text: String, _ command: Command) throws {
        #expect(try decode(text).get().command == command)
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
