import CSystemShim
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// MPD's protocol as a front end of the daemon's one command handler, beside the socket and
/// MPRIS (docs/mpd.md): MPD's clients (mpc, ncmpcpp, phone apps, status bars' mpd modules)
/// connect over TCP or a Unix socket (`mpd-listen`), served by the one `SocketServer`.
/// Commands become the daemon's commands; `status`, `currentsong` and the queue are read from
/// the published view; `idle` is told which of its events' values differ from the view
/// announced before (`MPDIdleState`). Nothing listens unless an address is configured. Event
/// loop only.
final class MPDFrontEnd: Subsystem {
    private let addresses: [MPDListenAddress]
    private let loop: EventLoop
    private let log: DaemonLog
    private var context: MPDContext!
    private var server: SocketServer!
    /// Each listening socket, with the address it was bound to (nil: systemd's).
    private var listeners: [(fd: Int32, address: MPDListenAddress?)] = []
    /// MPD's limits: a client quiet this long (and not in `idle`) is closed, and so is one
    /// that lets this much of its replies pile up unread.
    static let timeoutSeconds = 60.0
    static let maximumOutputBytes = 8 << 20
    /// The queue's version as MPD counts it (`playlist:` in `status`): one more at each change.
    private var playlistVersion: UInt64 = 1
    /// MPD numbers each database update; this is the number of the last one begun.
    private var updateJob = 0
    /// What the view announced last showed, for `idle`.
    private var announced: (idle: MPDIdleState, nowPlaying: NowPlaying)?
    /// Whether new clients wait in the listeners' backlogs while a long queue is read at start
    /// (`PlayerView.isLoading`): MPD's commands read the queue from the view, which holds only
    /// its head meanwhile.
    private var holdsClients = false

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
                for client in server.sessions(of: MPDClient.self) { client.session.changed(idleEvents) }
            })
        server = SocketServer(
            loop: loop,
            rules: SocketServer.Rules(
                maximumUnreadBytes: Self.maximumOutputBytes, boundsReplies: true, quietTimeout: Self.timeoutSeconds),
            log: log, name: "MPD"
        ) { [unowned self] connection in MPDClient(connection: connection, context: context) }
    }

    func start() throws(SubsystemError) {
        // Sockets systemd passed for MPD (playbackd-mpd.socket) serve as the configured ones do.
        for fd in PassedSockets.named(["mpd"]) {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            listeners.append((fd, nil))
            server.listen(on: fd)
            log.notice("MPD's protocol on the socket systemd passed", event: "mpd-listening")
        }
        for address in addresses {
            switch address.listen() {
            case .failure(let problem): throw SubsystemError("mpd-listen: \(problem.message)")
            case .success(let (fd, bound)):
                listeners.append((fd, address))
                server.listen(on: fd)
                log.notice("MPD's protocol on \(bound)", event: "mpd-listening")
            }
        }
    }

    func ready(_ view: PlayerView) {
        announced = (MPDIdleState(view), view.nowPlaying)
        holdClients(view.isLoading)
    }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        if holdsClients && !view.isLoading { holdClients(false) }
        let idle = MPDIdleState(view)
        guard let earlier = announced else { return announced = (idle, view.nowPlaying) }
        let idleEvents = idle.events(since: earlier.idle, jumped: view.nowPlaying.jumped(from: earlier.nowPlaying))
        announced = (idle, view.nowPlaying)
        if idleEvents.contains("playlist") { playlistVersion += 1 }
        if idle.scanning && !earlier.idle.scanning { updateJob += 1 }
        guard !idleEvents.isEmpty else { return }
        for client in server.sessions(of: MPDClient.self) { client.session.changed(idleEvents) }
    }

    /// New clients wait in the listeners' backlogs, or (`false`) are served again.
    private func holdClients(_ holds: Bool) {
        holdsClients = holds
        for listener in listeners { server.holdAccepting(on: listener.fd, holds) }
    }

    func stop(_ last: PlayerView) {
        server.closeAll()
        for listener in listeners {
            server.stopListening(on: listener.fd)
            Glibc.close(listener.fd)
            if case .unix(let path)? = listener.address { unlink(path) }
        }
        listeners = []
    }
}
