import ControlProtocol

/// The control socket: newline-delimited JSON requests, each answered in order
/// (`ControlSession`), and pushed events for subscribers, served by the one `SocketServer`
/// (only the daemon's own user is served). It owns the listening socket. Event loop only.
final class ControlServer {
    /// Answers one request by calling the reply closure, at once or later (a successful
    /// `subscribe` also subscribes the connection).
    typealias Handler = (Request, @escaping (Response) -> Void) -> Void

    private(set) var listener: UnixListener
    private let server: SocketServer
    private var isClosed = false

    /// `countChanged` is told how many clients are connected, after each connects or goes.
    init(
        loop: EventLoop, listener: UnixListener, log: DaemonLog, countChanged: @escaping (Int) -> Void,
        handle: @escaping Handler
    ) {
        self.listener = listener
        server = SocketServer(
            loop: loop, rules: SocketServer.Rules(sameUserOnly: true), log: log, name: "control",
            refusal: { Response.failure(.badRequest, $0).lineBytes }, countChanged: countChanged
        ) { connection in ControlSession(connection: connection, handle: handle) }
        server.listen(on: listener.fd)
    }

    /// Closes every client and the listener.
    func shutdown() {
        stopAccepting()
        server.closeAll()
    }

    /// Refuses new clients from now on: the listener is closed (a socket systemd passed stays
    /// with systemd, which starts the daemon again on the next connection).
    func stopAccepting() {
        guard !isClosed else { return }
        isClosed = true
        server.stopListening(on: listener.fd)
        listener.close()
    }

    /// Serves new clients from `new` instead (the old socket's file was removed); clients
    /// already connected stay.
    func replaceListener(with new: UnixListener) {
        guard !isClosed else { return new.close() }
        server.stopListening(on: listener.fd)
        listener.closeDescriptor()
        listener = new
        server.listen(on: new.fd)
    }

    /// Pushes `event`, its snapshot as `nowPlaying` (serialized before), to every subscriber; a
    /// subscriber that lets too much pile up unread is closed.
    func broadcast(_ event: Event, nowPlaying: JSONValue) {
        let line = event.lineBytes(nowPlaying: nowPlaying)
        for session in server.sessions(of: ControlSession.self) where session.isSubscribed { session.push(line) }
    }
}
