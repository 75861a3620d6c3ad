import ControlProtocol

/// One client of the control socket: its request lines decoded and answered in order. While a
/// request is answered later (an enqueue probes files), its later lines wait here and nothing
/// more is read, until the reply is written. After a successful `subscribe` it receives pushed
/// events too. Event loop only.
final class ControlSession: SocketSession {
    private let connection: SocketConnection
    private let handle: ControlServer.Handler
    /// After `subscribe`, pushed events go to this client too.
    private(set) var isSubscribed = false
    private var isAwaitingReply = false
    private var waitingLines: [ClientConnection.Line] = []

    init(connection: SocketConnection, handle: @escaping ControlServer.Handler) {
        self.connection = connection
        self.handle = handle
    }

    var takesInput: Bool { !isAwaitingReply }
    var isDone: Bool { !isAwaitingReply && waitingLines.isEmpty }
    var isWaiting: Bool { false }

    func receive(_ line: ClientConnection.Line) { answer(line) }

    /// A pushed line, which counts against what a client may leave unread.
    func push(_ line: [UInt8]) { connection.write(line, pushed: true) }

    private func answer(_ line: ClientConnection.Line) {
        if isAwaitingReply { return waitingLines.append(line) }
        switch line {
        case .tooLong:
            connection.write(
                Response.failure(.badRequest, "request line longer than \(ProtocolLimits.maximumLineBytes) bytes")
                    .lineBytes)
        case .request(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            guard String(validating: bytes, as: UTF8.self) != nil else {
                return connection.write(Response.failure(.badRequest, "request is not valid UTF-8").lineBytes)
            }
            switch RequestDecoder.decode(bytes) {
            case .failure(let failure):
                connection.write(
                    Response(id: failure.id, status: .badRequest, message: failure.error.message).lineBytes)
            case .success(let request):
                isAwaitingReply = true
                handle(request) { [weak self] response in self?.deliver(response, to: request) }
            }
        }
    }

    /// Sends the reply to `request`, then answers the lines the client sent meanwhile.
    private func deliver(_ response: Response, to request: Request) {
        guard connection.isOpen else { return }
        isAwaitingReply = false
        var response = response
        if request.command == .subscribe && response.status == .success { isSubscribed = true }
        response.id = request.id
        connection.write(response.lineBytes)
        while !isAwaitingReply && !waitingLines.isEmpty && connection.isOpen { answer(waitingLines.removeFirst()) }
    }
}
