import ControlProtocol
import PlaybackModel

/// The control socket as a subsystem: it binds (or adopts systemd's socket) at start, serves
/// requests through the service's socket adapter, pushes every change to subscribers, refuses
/// new clients when stopping and closes the rest at the end.
final class SocketFrontEnd: Subsystem {
    private let path: String
    private let loop: EventLoop
    /// The daemon's log, for the start-up line; `control` is the server's.
    private let log: DaemonLog
    private let control: DaemonLog
    /// The output device, named in the start-up line.
    private let device: String
    /// Carries out a command and replies (`CommandRouter.handle`).
    private let perform: (Command, @escaping (CommandResult) -> Void) -> Void
    private(set) var server: ControlServer?
    /// The snapshot serialized last, for replies and pushed lines alike.
    private let snapshots = SnapshotEncoding()
    /// Where a client connecting or going is told (`PlayerService.receive`: the idle exit counts
    /// them).
    private let report: (SubsystemReport) -> Void

    init(
        path: String, device: String, loop: EventLoop, log: DaemonLog, control: DaemonLog,
        perform: @escaping (Command, @escaping (CommandResult) -> Void) -> Void,
        report: @escaping (SubsystemReport) -> Void
    ) {
        self.report = report
        self.path = path
        self.device = device
        self.loop = loop
        self.perform = perform
        self.log = log
        self.control = control
    }

    func start() throws(SubsystemError) {
        let listener: UnixListener
        do {
            listener = try UnixListener.open(path: path)
        } catch {
            throw SubsystemError(error.description)
        }
        let server = ControlServer(
            loop: loop, listener: listener, log: control,
            countChanged: { [unowned self] count in report(.clientsConnected(count)) }
        ) { [unowned self] request, reply in
            perform(request.command) { [snapshots] in reply(Response($0, snapshots: snapshots)) }
        }
        self.server = server
        log.notice(
            "listening on \(listener.boundPath ?? "the socket systemd passed"), device '\(device)'", event: "started")
    }

    /// A step's changes go out as one line, with what it heard; a step that changed nothing
    /// and heard nothing sends none.
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        let hearing = events.compactMap(Self.hearing)
        guard !changes.isEmpty || !hearing.isEmpty else { return }
        server?.broadcast(
            Event(
                changes: changes, nowPlaying: view.nowPlaying,
                equalizer: changes.contains(.equalizer) ? view.equalizer : nil,
                library: changes.contains(.library) ? view.library : nil, hearing: hearing),
            nowPlaying: snapshots.json(view.nowPlaying))
    }

    /// An event as the protocol tells it; nil for those it does not.
    private static func hearing(_ event: PlayerEvent) -> HearingEvent? {
        switch event {
        case .itemAudible(let item, let began):
            .audible(itemID: item.id, assetURL: StreamURL.url(ofItem: item.path), began: began)
        case .itemHeard(let heard):
            .heard(
                itemID: heard.item.id, assetURL: StreamURL.url(ofItem: heard.item.path), began: heard.began,
                seconds: heard.seconds, ending: heard.ending.rawValue)
        default: nil
        }
    }

    /// SIGHUP also brings the socket back when its file (or the runtime directory) was removed,
    /// as `systemctl --user reload playbackd` would be asked to after a cleanup of the runtime
    /// directory; playback and connected clients are not touched.
    func reload(_ settings: DaemonSettings) {
        guard let server, !server.listener.isReachableAtPath, let path = server.listener.boundPath else { return }
        do {
            server.replaceListener(with: try UnixListener.bind(path: path))
            log.notice("the socket \(path) was gone; listening on it again")
        } catch {
            log.error("the socket \(path) is gone and cannot be bound again: \(error)")
        }
    }

    func beginStopping() { server?.stopAccepting() }

    func stop(_ last: PlayerView) { server?.shutdown() }
}
