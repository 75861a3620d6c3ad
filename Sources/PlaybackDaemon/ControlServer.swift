import CSystemShim
import ControlProtocol
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts clients on the control socket, frames their lines, hands each request to the
/// player service and writes replies in order; fans pushed events out to subscribers.
/// Runs on the event loop. Every per-client resource is bounded (`ProtocolLimits`).
final class ControlServer {
    /// Answers one request by calling the reply closure, at once or later (a successful
    /// `subscribe` also subscribes the connection).
    typealias Handler = (Request, @escaping (Response) -> Void) -> Void

    private let loop: EventLoop
    private(set) var listener: UnixListener
    private let handle: Handler
    private let log: DaemonLog
    private var clients: [Int32: ClientConnection] = [:]
    /// One receive buffer for every client (the loop handles one client at a time).
    private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
    private let ownUID = geteuid()
    /// Called when a client connects or goes away (the daemon's idle exit counts them).
    var onClientCountChanged: (Int) -> Void = { _ in }

    init(loop: EventLoop, listener: UnixListener, log: DaemonLog, handle: @escaping Handler) {
        self.loop = loop
        self.listener = listener
        self.handle = handle
        self.log = log
        loop.watch(listener.fd) { [unowned self] _ in self.acceptClients() }
    }

    deinit { receiveBuffer.deallocate() }

    /// Closes every client and the listener.
    func shutdown() {
        stopAccepting()
        for fd in Array(clients.keys) { drop(fd) }
    }

    /// Refuses new clients from now on: the listener is closed (a socket systemd passed stays
    /// with systemd, which starts the daemon again on the next connection).
    func stopAccepting() {
        guard !isClosed else { return }
        isClosed = true
        loop.unwatch(listener.fd)
        listener.close()
    }

    private var isClosed = false

    /// Serves new clients from `new` instead (the old socket's file was removed); clients
    /// already connected stay.
    func replaceListener(with new: UnixListener) {
        guard !isClosed else { return new.close() }
        loop.unwatch(listener.fd)
        listener.closeDescriptor()
        listener = new
        loop.watch(new.fd) { [unowned self] _ in self.acceptClients() }
    }

    /// Pushes `event` to every subscriber; a subscriber whose queue is full is dropped.
    func broadcast(_ event: Event) {
        let line = event.lineBytes
        for client in clients.values where client.isSubscribed {
            send(line, to: client, isReply: false)
        }
    }

    private func acceptClients() {
        while true {
            let fd = playbackd_accept(listener.fd)
            guard fd >= 0 else { return }
            let uid = peerUID(fd)
            guard uid == ownUID else {
                refuse(
                    fd,
                    "connection refused: peer uid \(uid.map(String.init) ?? "unknown") is not the daemon's uid \(ownUID)"
                )
                continue
            }
            guard clients.count < ProtocolLimits.maximumClients else {
                refuse(fd, "too many clients (at most \(ProtocolLimits.maximumClients))")
                continue
            }
            let client = ClientConnection(fd: fd)
            clients[fd] = client
            loop.watch(fd) { [unowned self] events in self.service(fd, events) }
            onClientCountChanged(clients.count)
        }
    }

    private func refuse(_ fd: Int32, _ message: String) {
        log.warning(message)
        let line = Response.failure(.badRequest, message).lineBytes
        _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }

    private func peerUID(_ fd: Int32) -> uid_t? {
        var uid: UInt32 = 0
        return playbackd_peer_uid(fd, &uid) == 0 ? uid : nil
    }

    private func service(_ fd: Int32, _ events: Int16) {
        guard let client = clients[fd] else { return }
        if events & Int16(POLLOUT) != 0 { flush(client) }
        if client.isAwaitingReply && events & Int16(POLLHUP | POLLERR) != 0 {
            return drop(fd)  // gone before its reply: nothing to send it to
        }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !client.readClosed { read(client) }
    }

    private func read(_ client: ClientConnection) {
        while clients[client.fd] != nil && !client.isAwaitingReply {
            let count = recv(client.fd, receiveBuffer.baseAddress, receiveBuffer.count, 0)
            if count > 0 {
                let lines = client.receive(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count]))
                for line in lines where clients[client.fd] != nil { answer(line, from: client) }
                // Less than the buffer: the socket was most likely emptied. Not asking again
                // saves a recv() that fails with EAGAIN on every request; if more came, the
                // loop reports the socket readable again.
                if count < receiveBuffer.count { return }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // EOF (or a reset): a partial line is discarded; replies already queued are sent.
                client.readClosed = true
                if client.hasPendingOutput {
                    loop.setEvents(client.fd, Int16(POLLOUT))
                } else if !client.isAwaitingReply {
                    drop(client.fd)
                }
                return
            } else if errno == EAGAIN {
                return
            }
        }
    }

    private func answer(_ line: ClientConnection.Line, from client: ClientConnection) {
        if client.isAwaitingReply { return client.heldLines.append(line) }
        switch line {
        case .tooLong:
            send(
                Response.failure(.badRequest, "request line longer than \(ProtocolLimits.maximumLineBytes) bytes")
                    .lineBytes, to: client, isReply: true)
        case .request(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            guard String(validating: bytes, as: UTF8.self) != nil else {
                return send(
                    Response.failure(.badRequest, "request is not valid UTF-8").lineBytes, to: client, isReply: true)
            }
            switch RequestDecoder.decode(bytes) {
            case .failure(let failure):
                let response = Response(id: failure.id, status: .badRequest, message: failure.error.message)
                send(response.lineBytes, to: client, isReply: true)
            case .success(let request):
                client.isAwaitingReply = true
                handle(request) { [weak self, weak client] response in
                    guard let self, let client else { return }
                    deliver(response, to: request, from: client)
                }
            }
        }
    }

    /// Sends the reply to `request`, then answers the lines the client sent meanwhile.
    private func deliver(_ response: Response, to request: Request, from client: ClientConnection) {
        guard clients[client.fd] === client else { return }
        client.isAwaitingReply = false
        var response = response
        if request.command == .subscribe && response.status == .success { client.isSubscribed = true }
        response.id = request.id
        send(response.lineBytes, to: client, isReply: true)
        while !client.isAwaitingReply && !client.heldLines.isEmpty && clients[client.fd] === client {
            answer(client.heldLines.removeFirst(), from: client)
        }
    }

    private func send(_ line: [UInt8], to client: ClientConnection, isReply: Bool) {
        guard client.enqueue(line, isReply: isReply) else { return drop(client.fd) }
        flush(client)
    }

    private func flush(_ client: ClientConnection) {
        guard client.flush() else { return drop(client.fd) }
        let reading = client.readClosed || client.isAwaitingReply ? 0 : POLLIN
        if client.hasPendingOutput {
            loop.setEvents(client.fd, Int16(reading | POLLOUT))
        } else if client.readClosed && !client.isAwaitingReply {
            drop(client.fd)
        } else {
            loop.setEvents(client.fd, Int16(reading))
        }
    }

    private func drop(_ fd: Int32) {
        loop.unwatch(fd)
        clients[fd] = nil
        close(fd)
        onClientCountChanged(clients.count)
    }
}
