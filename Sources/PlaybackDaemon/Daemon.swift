import CShim
import ControlProtocol
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The running daemon: the control loop with the socket server, the player service, the
/// engine, signals and systemd notifications. The composition root passes in the concrete
/// audio backends.
public final class Daemon {
    private let options: DaemonOptions
    private let loop = ControlLoop()
    private let log: DaemonLog
    private let control: DaemonLog
    private let notifier = SystemdNotifier()
    private let engine: PlaybackEngine
    private let service: PlayerService
    private var server: ControlServer?
    private var lastStatus = ""

    public init(options: DaemonOptions, sink: any AudioSink, openDecoder: @escaping AudioDecoderFactory) {
        self.options = options
        log = DaemonLog(label: "playbackd", threshold: options.logLevel)
        control = DaemonLog(label: "playbackd.control", threshold: options.logLevel)
        engine = PlaybackEngine(sink: sink, openDecoder: openDecoder)
        let availability = CommandAvailability(
            disabled: options.disabled,
            skipForwardIntervals: [options.skipForwardInterval],
            skipBackwardIntervals: [options.skipBackwardInterval])
        service = PlayerService(
            engine: engine, prober: ItemProber(openDecoder: openDecoder),
            availability: availability, pauseHoldSeconds: options.pauseHoldSeconds,
            loop: loop, log: DaemonLog(label: "playbackd.engine", threshold: options.logLevel))
    }

    /// Runs until SIGTERM or SIGINT; returns the process exit code.
    public func run() -> Int32 {
        // Writes to a vanished peer must be errors, not a fatal signal (ours use MSG_NOSIGNAL;
        // libraries' sockets, such as libpulse's inside the ALSA plugin, may not).
        signal(SIGPIPE, SIG_IGN)
        let signals = playbackd_signalfd()
        let path = SocketPath.resolve(explicit: options.socket, environment: .process)
        let listener: UnixListener
        do {
            listener = try UnixListener.open(path: path)
        } catch {
            log.error(error.description)
            return 1
        }
        let server = ControlServer(loop: loop, listener: listener, log: control) { [unowned self] request in
            service.handle(request)
        }
        self.server = server
        service.onChanges = { [unowned self] changes in publish(changes) }
        loop.watch(signals) { [unowned self] _ in handleSignal(playbackd_signalfd_read(signals)) }
        log.notice("listening on \(listener.boundPath ?? "socket passed by systemd"), device '\(options.device)'")
        lastStatus = SystemdNotifier.summary(service.snapshot())
        notifier.ready(status: lastStatus)
        loop.run()
        notifier.stopping()
        engine.releaseDevice()
        server.shutdown()
        log.notice("stopped")
        return 0
    }

    private func publish(_ changes: ChangeSet) {
        let snapshot = service.snapshot()
        server?.broadcast(Event(changes: changes, nowPlaying: snapshot))
        let status = SystemdNotifier.summary(snapshot)
        if status != lastStatus {
            lastStatus = status
            notifier.status(status)
        }
        if changes.contains(.state) || changes.contains(.item) { control.info(status) }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            log.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), shutting down")
            loop.stop()
        case SIGHUP:
            log.notice("SIGHUP: nothing to reload (no configuration file yet)")
        default:
            break
        }
    }
}
