import CSystemShim
import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The one socket server under every front end (the control socket, MPD's protocol): it
/// accepts on the listeners it is given (Unix or TCP), checks a Unix peer's user when the
/// front end asks, frames lines, hands them to each connection's `SocketSession`, and writes
/// back with a bound on what a client leaves unread. It closes a client that hung up while a
/// reply was pending, one that sent its last line once everything is answered and written,
/// and (where the protocol has a timeout) one that stayed quiet. Every per-client resource is
/// bounded. Event loop only.
final class SocketServer {
    /// A front end's rules for its clients.
    struct Rules {
        /// Connections at once; the next is refused.
        var maximumClients = ProtocolLimits.maximumClients
        /// Bytes a client may leave unread: a pushed line beyond it closes the connection, and
        /// a reply too when `boundsReplies` (otherwise a reply is queued whole: the client asked
        /// for it and reads it next).
        var maximumUnreadBytes = ProtocolLimits.maximumPendingOutputBytes
        var boundsReplies = false
        /// A connection quiet this long, and not waiting by its protocol's rules, is closed;
        /// nil: never.
        var quietTimeout: Double?
        /// Whether a client must be the daemon's own user (`SO_PEERCRED`; a Unix socket).
        var sameUserOnly = false
    }

    private struct Entry {
        var client: ClientConnection
        var handle: SocketConnection
        var session: any SocketSession
        var timeout: OneShotTimer?
    }

    private let loop: EventLoop
    private let rules: Rules
    private let log: DaemonLog
    /// Names the front end in its log lines ("MPD", "control").
    private let name: String
    private let makeSession: (SocketConnection) -> any SocketSession
    /// The line sent to a refused client before it is closed; nil: closed without a word.
    private let refusal: (String) -> [UInt8]?
    private var listeners: Set<Int32> = []
    private var connections: [Int32: Entry] = [:]
    /// One receive buffer for every client (the loop serves one client at a time).
    private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
    private let ownUID = geteuid()
    /// Told how many clients are connected, after each connects or goes.
    private let countChanged: (Int) -> Void

    init(
        loop: EventLoop, rules: Rules, log: DaemonLog, name: String,
        refusal: @escaping (String) -> [UInt8]? = { _ in nil }, countChanged: @escaping (Int) -> Void = { _ in },
        makeSession: @escaping (SocketConnection) -> any SocketSession
    ) {
        self.loop = loop
        self.rules = rules
        self.log = log
        self.name = name
        self.refusal = refusal
        self.countChanged = countChanged
        self.makeSession = makeSession
    }

    deinit { receiveBuffer.deallocate() }

    // MARK: Listeners

    /// Accepts clients on `fd` (a listening, non-blocking socket the caller owns and closes).
    func listen(on fd: Int32) {
        listeners.insert(fd)
        loop.watch(fd) { [unowned self] _ in accept(fd) }
    }

    /// Stops accepting on `fd`; connections made through it stay.
    func stopListening(on fd: Int32) {
        guard listeners.remove(fd) != nil else { return }
        loop.unwatch(fd)
    }

    /// Leaves new clients of `fd` waiting in its backlog, or (`false`) accepts them again.
    func holdAccepting(on fd: Int32, _ holds: Bool) {
        guard listeners.contains(fd) else { return }
        loop.setEvents(fd, holds ? 0 : Int16(POLLIN))
        if !holds { accept(fd) }
    }

    /// The sessions of the clients connected, in no order.
    func sessions<Session: SocketSession>(of type: Session.Type) -> [Session] {
        connections.values.compactMap { $0.session as? Session }
    }

    /// Closes every client.
    func closeAll() {
        for fd in Array(connections.keys) { drop(fd) }
    }

    // MARK: Accepting

    private func accept(_ listener: Int32) {
        while true {
            let fd = playbackd_accept(listener)
            guard fd >= 0 else { return }
            if rules.sameUserOnly {
                var uid: UInt32 = 0
                let known = playbackd_peer_uid(fd, &uid) == 0
                guard known && uid == ownUID else {
                    refuse(
                        fd,
                        "connection refused: peer uid \(known ? String(uid) : "unknown") is not the daemon's uid \(ownUID)"
                    )
                    continue
                }
            }
            guard connections.count < rules.maximumClients else {
                refuse(fd, "too many clients (at most \(rules.maximumClients))")
                continue
            }
            let handle = makeConnection(fd: fd)
            let session = makeSession(handle)
            let timeout = rules.quietTimeout.map { _ in OneShotTimer(loop: loop, accuracy: 1) }
            connections[fd] = Entry(
                client: ClientConnection(fd: fd), handle: handle, session: session, timeout: timeout)
            loop.watch(fd) { [unowned self] events in service(fd, events) }
            countChanged(connections.count)
            session.connected()
            refreshTimeout(fd)
        }
    }

    private func refuse(_ fd: Int32, _ message: String) {
        log.warning("\(name): \(message)")
        if let line = refusal(message) {
            _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        close(fd)
    }

    // MARK: Serving

    private func service(_ fd: Int32, _ events: Int16) {
        guard let entry = connections[fd] else { return }
        if events & Int16(POLLOUT) != 0 { flush(fd) }
        guard connections[fd]?.client === entry.client else { return }
        if !entry.session.isDone && events & Int16(POLLHUP | POLLERR) != 0 {
            return drop(fd)  // gone before its reply: nothing to send it to
        }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !entry.client.readClosed { read(fd) }
    }

    private func read(_ fd: Int32) {
        defer { refreshTimeout(fd) }
        while let entry = connections[fd], entry.session.takesInput {
            let count = recv(fd, receiveBuffer.baseAddress, receiveBuffer.count, 0)
            if count > 0 {
                for line in entry.client.receive(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count])) {
                    guard connections[fd]?.client === entry.client else { return }
                    entry.session.receive(line)
                }
                // Less than the buffer: the socket was most likely emptied. Not asking again
                // saves a recv() that fails with EAGAIN on every request; if more came, the
                // loop reports the socket readable again.
                if count < receiveBuffer.count { return }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // EOF (or a reset): a partial line is discarded; what it asked is answered.
                entry.client.readClosed = true
                return flush(fd)
            } else if errno == EAGAIN {
                return
            }
        }
    }

    func write(_ bytes: [UInt8], to connection: SocketConnection, pushed: Bool) {
        guard let entry = connections[connection.fd], entry.handle === connection else { return }
        entry.client.enqueue(bytes)
        if (pushed || rules.boundsReplies) && entry.client.pendingOutputBytes > rules.maximumUnreadBytes {
            let what = pushed ? "pushed lines" : "replies"
            log.warning(
                "\(name): a client left more than \(rules.maximumUnreadBytes >> 10) KiB of \(what) unread: closed")
            return drop(connection.fd)
        }
        flush(connection.fd)
        refreshTimeout(connection.fd)
    }

    /// Writes what the socket takes, then waits for what is due next: reading, writing the
    /// rest, or nothing more (a client that sent its last line, answered in full, is closed).
    private func flush(_ fd: Int32) {
        guard let entry = connections[fd] else { return }
        guard entry.client.flush() else { return drop(fd) }
        let reading = entry.client.readClosed || !entry.session.takesInput ? 0 : POLLIN
        if entry.client.hasPendingOutput {
            loop.setEvents(fd, Int16(reading | POLLOUT))
        } else if entry.client.readClosed && entry.session.isDone {
            drop(fd)
        } else {
            loop.setEvents(fd, Int16(reading))
        }
    }

    /// Arms the connection's quiet timeout, or cancels it while its protocol has it wait.
    private func refreshTimeout(_ fd: Int32) {
        guard let seconds = rules.quietTimeout, let entry = connections[fd], let timeout = entry.timeout else { return }
        if entry.session.isWaiting {
            timeout.cancel()
        } else {
            timeout.arm(after: seconds) { [unowned self] in
                guard connections[fd]?.handle === entry.handle else { return }
                guard entry.session.isDone else { return refreshTimeout(fd) }
                drop(fd)
            }
        }
    }

    func drop(_ fd: Int32) {
        guard let entry = connections.removeValue(forKey: fd) else { return }
        entry.timeout?.cancel()
        closed(entry.handle)
        loop.unwatch(fd)
        close(fd)
        countChanged(connections.count)
    }
}
