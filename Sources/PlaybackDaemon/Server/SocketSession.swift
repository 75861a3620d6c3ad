/// One connection's protocol, served by a `SocketServer`: what each line the client sends
/// means, and whether all it asked for has been answered. Each front end (the control socket,
/// MPD's protocol) supplies one for every connection, and writes back through the
/// `SocketConnection` it was made with. Event loop only.
protocol SocketSession: AnyObject {
    /// The connection is accepted and served (MPD greets its client here).
    func connected()
    /// A line the client sent, without its newline (and a `\r` before it), or one longer than
    /// the server's limit.
    func receive(_ line: ClientConnection.Line)
    /// Whether the server may read more of the client's lines now; false while a reply is
    /// pending and the protocol wants nothing more read meanwhile (reading goes on once the
    /// reply is written).
    var takesInput: Bool { get }
    /// Whether every line received has been answered: a client that sent its last line is
    /// closed once this holds and its replies are written.
    var isDone: Bool { get }
    /// Whether the connection is waiting for the daemon by the protocol's own rules (MPD's
    /// `idle`): no idle timeout applies then.
    var isWaiting: Bool { get }
}

/// The server's side of one connection, for its session: write to it, or close it.
/// It outlives neither the server nor the connection: once the connection is closed every
/// call does nothing (a reply can come after its client left).
final class SocketConnection {
    fileprivate weak var server: SocketServer?
    let fd: Int32
    fileprivate(set) var isOpen = true

    fileprivate init(server: SocketServer, fd: Int32) {
        self.server = server
        self.fd = fd
    }

    /// Queues `bytes` and writes what the socket takes: a reply, or (`pushed`) a line the
    /// client did not ask for, which the server's limit on unread pushes applies to.
    func write(_ bytes: [UInt8], pushed: Bool = false) {
        guard isOpen else { return }
        server?.write(bytes, to: self, pushed: pushed)
    }

    /// Closes the connection (after nothing: what is queued is dropped).
    func close() {
        guard isOpen else { return }
        server?.drop(fd)
    }
}

extension SocketSession {
    func connected() {}
}

extension SocketServer {
    /// A connection's handle for its session (made by the server alone).
    func makeConnection(fd: Int32) -> SocketConnection { SocketConnection(server: self, fd: fd) }
    /// The connection is closed: its handle does nothing from now on.
    func closed(_ connection: SocketConnection) { connection.isOpen = false }
}
