import CSystemShim
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// MPD's protocol as a front end of the daemon's one command handler, beside the socket and
/// MPRIS (docs/mpd.md): MPD's clients (mpc, ncmpcpp, phone apps, status bars' mpd modules)
/// connect over TCP or a Unix socket (`mpd-listen`). Commands become the daemon's commands;
/// `status`, `currentsong` and the queue are read from the published view; `idle` is told
/// which of its events' values differ from the view announced before (`MPDIdleState`). Nothing listens unless an address is configured.
/// Event loop only.
final class MPDFrontEnd: Subsystem {
    private let addresses: [MPDListenAddress]
    private let loop: EventLoop
    private let log: DaemonLog
    private var context: MPDContext!
    /// Each listening socket, with the address it was bound to (nil: systemd's).
    private var listeners: [(fd: Int32, address: MPDListenAddress?)] = []
    private var connections: [Int32: (client: ClientConnection, session: MPDSession, timeout: OneShotTimer)] = [:]
    /// MPD's limits: a client quiet this long (and not in `idle`) is closed, and so is one
    /// that lets this much of its replies pile up unread.
    static let timeoutSeconds = 60.0
    static let maximumOutputBytes = 8 << 20
    private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
    /// The queue's version as MPD counts it (`playlist:` in `status`): one more at each change.
    private var playlistVersion: UInt64 = 1
    /// MPD numbers each database update; this is the number of the last one begun.
    private var updateJob = 0
    /// What the view announced last showed, for `idle`.
    private var announced: (idle: MPDIdleState, nowPlaying: NowPlaying)?
    /// Listeners not accepting while a long queue is read at start (`PlayerView.isLoading`):
    /// MPD's commands read the queue from the view, which holds only its head meanwhile.
    private var waitingListeners: [Int32] = []

    init(
        addresses: [MPDListenAddress], roots: [String], device: String, playlists: StoredPlaylists?,
        settings: DaemonSettings, loop: EventLoop, log: DaemonLog,
        perform: @escaping (Command, @escaping (CommandResult) -> Void) -> Void,
        current: @escaping () -> PlayerView
    ) {
        self.addresses = addresses
        self.loop = loop
        self.log = log
        context = MPDContext(
            view: current, perform: perform, roots: roots, device: device,
            playlistVersion: { [unowned self] in playlistVersion },
            updatingJob: { [unowned self] in announced?.idle.scanning == true ? updateJob : nil },
            startedAt: WallClock.now(),
            access: MPDAccess(passwords: settings.mpdPasswords, defaultPermissions: settings.mpdDefaultPermissions),
            playlists: playlists,
            changed: { [unowned self] idleEvents in
                for (_, connection) in connections { connection.session.changed(idleEvents) }
            })
    }

    deinit { receiveBuffer.deallocate() }

    func start() throws(SubsystemError) {
        // Sockets systemd passed for MPD (playbackd-mpd.socket) serve as the configured ones do.
        for fd in PassedSockets.named(["mpd"]) {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            listeners.append((fd, nil))
            loop.watch(fd) { [unowned self] _ in accept(fd) }
            log.notice("MPD's protocol on the socket systemd passed", event: "mpd-listening")
        }
        for address in addresses {
            switch address.listen() {
            case .failure(let problem): throw SubsystemError("mpd-listen: \(problem.message)")
            case .success(let (fd, bound)):
                listeners.append((fd, address))
                loop.watch(fd) { [unowned self] _ in accept(fd) }
                log.notice("MPD's protocol on \(bound)", event: "mpd-listening")
            }
        }
    }

    func ready(_ view: PlayerView) {
        announced = (MPDIdleState(view), view.nowPlaying)
    }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        if !view.isLoading && !waitingListeners.isEmpty {
            let waiting = waitingListeners
            waitingListeners = []
            for fd in waiting {
                loop.setEvents(fd, Int16(POLLIN))
                accept(fd)
            }
        }
        let idle = MPDIdleState(view)
        guard let earlier = announced else { return announced = (idle, view.nowPlaying) }
        let events = idle.events(since: earlier.idle, jumped: view.nowPlaying.jumped(from: earlier.nowPlaying))
        announced = (idle, view.nowPlaying)
        if events.contains("playlist") { playlistVersion += 1 }
        if idle.scanning && !earlier.idle.scanning { updateJob += 1 }
        guard !events.isEmpty else { return }
        for (_, connection) in connections { connection.session.changed(events) }
    }

    func stop(_ last: PlayerView) {
        for fd in Array(connections.keys) { drop(fd) }
        for listener in listeners {
            loop.unwatch(listener.fd)
            Glibc.close(listener.fd)
            if case .unix(let path)? = listener.address { unlink(path) }
        }
        listeners = []
    }

    // MARK: Connections

    private func accept(_ listenFD: Int32) {
        if context.view().isLoading {
            // Connections wait in the listen queue until the queue is whole.
            loop.setEvents(listenFD, 0)
            return waitingListeners.append(listenFD)
        }
        while true {
            let fd = playbackd_accept(listenFD)
            guard fd >= 0 else { return }
            guard connections.count < ProtocolLimits.maximumClients else {
                log.warning("MPD: too many clients (at most \(ProtocolLimits.maximumClients))")
                Glibc.close(fd)
                continue
            }
            let client = ClientConnection(fd: fd)
            let session = MPDSession(
                context: context,
                // A reply can come after its client left (the device opened meanwhile): the
                // client may be gone, and the descriptor's number another client's.
                write: { [weak self, weak client] bytes in
                    guard let self, let client else { return }
                    write(bytes, to: client)
                },
                close: { [weak self, weak client] in
                    guard let self, let client, connections[fd]?.client === client else { return }
                    drop(fd)
                })
            connections[fd] = (client, session, OneShotTimer(loop: loop, accuracy: 1))
            loop.watch(fd) { [unowned self] events in service(fd, events) }
            write(Array(MPDSession.greeting.utf8), to: client)
            refreshTimeout(fd)
        }
    }

    private func service(_ fd: Int32, _ events: Int16) {
        guard let client = connections[fd]?.client else { return }
        if events & Int16(POLLOUT) != 0 { flush(client) }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !client.readClosed { read(fd) }
    }

    private func read(_ fd: Int32) {
        defer { refreshTimeout(fd) }
        while let (client, session, _) = connections[fd] {
            let count = recv(fd, receiveBuffer.baseAddress, receiveBuffer.count, 0)
            if count > 0 {
                for line in client.receive(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count])) {
                    guard connections[fd] != nil else { return }
                    switch line {
                    case .tooLong:
                        write(Array(MPDError(.argument, "line too long").line(command: "", index: 0).utf8), to: client)
                        return drop(fd)
                    case .request(let bytes):
                        guard let text = String(validating: bytes, as: UTF8.self) else {
                            write(Array(MPDError(.argument, "not UTF-8").line(command: "", index: 0).utf8), to: client)
                            continue
                        }
                        session.receive(text)
                    }
                }
                if count < receiveBuffer.count { return }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // The client sent all it will: its lines are answered, then it is closed.
                client.readClosed = true
                if !client.hasPendingOutput && session.isDone { drop(fd) }
                return
            } else if errno == EAGAIN {
                return
            }
        }
    }

    private func write(_ bytes: [UInt8], to client: ClientConnection) {
        guard connections[client.fd]?.client === client else { return }
        _ = client.enqueue(bytes, isReply: true)
        guard client.pendingOutputBytes <= Self.maximumOutputBytes else {
            log.warning("MPD: a client left more than \(Self.maximumOutputBytes >> 20) MiB of replies unread: closed")
            return drop(client.fd)
        }
        flush(client)
        refreshTimeout(client.fd)
    }

    /// Arms the connection's timeout, or cancels it while the client waits in `idle`.
    private func refreshTimeout(_ fd: Int32) {
        guard let (_, session, timeout) = connections[fd] else { return }
        if session.isIdle {
            timeout.cancel()
        } else {
            timeout.arm(after: Self.timeoutSeconds) { [unowned self] in
                guard let session = connections[fd]?.session, session.isDone else { return refreshTimeout(fd) }
                drop(fd)
            }
        }
    }

    private func flush(_ client: ClientConnection) {
        guard client.flush() else { return drop(client.fd) }
        if client.hasPendingOutput {
            loop.setEvents(client.fd, Int16(POLLIN | POLLOUT))
        } else if client.readClosed, connections[client.fd]?.session.isDone ?? true {
            drop(client.fd)
        } else {
            loop.setEvents(client.fd, Int16(POLLIN))
        }
    }

    private func drop(_ fd: Int32) {
        guard connections.removeValue(forKey: fd) != nil else { return }
        loop.unwatch(fd)
        Glibc.close(fd)
    }
}
