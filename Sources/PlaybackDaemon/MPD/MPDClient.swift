import ControlProtocol

/// One MPD client, as the socket server serves it: the greeting, each line to its
/// `MPDSession`, a line too long answered with an error and the connection closed.
final class MPDClient: SocketSession {
    private let connection: SocketConnection
    let session: MPDSession

    init(connection: SocketConnection, context: MPDContext) {
        self.connection = connection
        // A reply can come after its client left (the device opened meanwhile): the connection
        // then writes nothing.
        session = MPDSession(
            context: context, write: { [connection] bytes in connection.write(bytes) },
            close: { [connection] in connection.close() })
    }

    func connected() { connection.write(Array(MPDSession.greeting.utf8)) }

    func receive(_ line: ClientConnection.Line) {
        switch line {
        case .tooLong:
            connection.write(Array(MPDError(.argument, "line too long").line(command: "", index: 0).utf8))
            connection.close()
        case .request(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return connection.write(Array(MPDError(.argument, "not UTF-8").line(command: "", index: 0).utf8))
            }
            session.receive(text)
        }
    }

    var takesInput: Bool { true }
    var isDone: Bool { session.isDone }
    var isWaiting: Bool { session.isIdle }
}
