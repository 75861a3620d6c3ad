import CSystemShim
import ControlProtocol
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The running daemon: the player service and the engine, and around them an ordered list of
/// subsystems (the socket and MPRIS front ends, the route watch, resume, systemd's status line and
/// watchdog, the anchor check, the idle exit) that start in order, see every published change and every reload,
/// and stop in reverse order. Signals arrive on the control loop. The composition root passes
/// in the concrete audio backends.
public final class Daemon {
    private let options: DaemonOptions
    private var settings: DaemonSettings
    private let loop = ControlLoop()
    private let logOutput: LogOutput
    private let log: DaemonLog
    private let notifier = SystemdNotifier()
    private let engine: PlaybackEngine
    private let service: PlayerService
    private let status: SystemdStatus
    /// Every subsystem, in start order; they stop in reverse order. Adding one is one entry.
    private var subsystems: [any Subsystem] = []

    /// `openDecoder` opens files for playback; `probeDecoder` for enqueueing, with pictures.
    public init(
        options: DaemonOptions, settings: DaemonSettings, sink: any AudioSink,
        openDecoder: @escaping AudioDecoderFactory, probeDecoder: @escaping AudioDecoderFactory
    ) {
        self.options = options
        self.settings = settings
        logOutput = LogOutput(threshold: settings.logLevel, target: settings.logTarget)
        log = DaemonLog(label: "playbackd", output: logOutput)
        engine = PlaybackEngine(sink: sink, openDecoder: openDecoder, realtime: settings.realtime)
        let availability = CommandAvailability(
            disabled: settings.disabled,
            skipForwardIntervals: [settings.skipForwardInterval],
            skipBackwardIntervals: [settings.skipBackwardInterval])
        service = PlayerService(
            engine: engine,
            prober: ItemProber(
                openDecoder: probeDecoder,
                artwork: ArtworkStore(directory: ArtworkStore.defaultDirectory(environment: .process))),
            availability: availability, pauseHoldSeconds: settings.pauseHoldSeconds,
            loop: loop, log: DaemonLog(label: "playbackd.engine", output: logOutput))
        status = SystemdStatus(notifier: notifier, log: DaemonLog(label: "playbackd.control", output: logOutput)) {
            [unowned service] in service.snapshot()
        }
        service.presets = EqualizerPresets(directory: EqualizerPresets.defaultDirectory(environment: .process))
        service.setEqualizer(settings.equalizer)
        service.setVolume(settings.volume)
        service.onRouteLost = settings.onRouteLost
        service.onRouteBack = settings.onRouteBack
        service.rateMinimumSeconds = settings.rateMinimumSeconds
        service.setReplayGain(settings.replayGain)
        service.publishChanges()  // the starting sound settings are no change anyone is told about
        subsystems = makeSubsystems()
    }

    /// The subsystems in start order. The socket starts first (a client can connect while the
    /// rest starts; it is answered once the loop runs) and closes last.
    private func makeSubsystems() -> [any Subsystem] {
        let socket = SocketFrontEnd(
            path: SocketPath.resolve(explicit: settings.socket, environment: .process), device: settings.device,
            loop: loop, service: service, log: log, control: DaemonLog(label: "playbackd.control", output: logOutput))
        let idleExit = IdleExit(
            loop: loop, seconds: settings.idleExitSeconds, log: log,
            isIdle: { [unowned self, unowned socket] in service.isIdle && socket.clientCount == 0 },
            exit: { [unowned self] in beginStopping() })
        socket.onClientCountChanged = { [unowned idleExit] in idleExit.evaluate() }
        let watchdog = HealthWatchdog(
            loop: loop, notifier: notifier,
            isOutputHealthy: { [unowned self] in
                engine.measuredPosition().map { $0.age < HealthWatchdog.maximumOutputSilence } ?? false
            },
            onStall: { [unowned self] in
                log.error(
                    "the output has not advanced for \(HealthWatchdog.maximumOutputSilence) s while playing: "
                        + "withholding the watchdog ping", event: "stalled")
            })
        let drift = AnchorDriftMonitor(
            loop: loop, measure: { [unowned self] in service.snapshot() },
            republish: { [unowned self] in publish(.position) })
        let mpris = MPRISFrontEnd(
            enabled: settings.mpris, loop: loop, service: service, environment: .process,
            log: DaemonLog(label: "playbackd.mpris", output: logOutput), quit: { [unowned self] in beginStopping() })
        let route = RouteWatch(
            loop: loop, engine: engine, log: DaemonLog(label: "playbackd.route", output: logOutput),
            onChange: { [unowned self] change in service.routeChanged(change) })
        service.onEngineStarted = { [unowned route] in route.watchOpenDevice() }
        return [
            socket, mpris, EngineDevice(engine: engine), route,
            ResumePersistence(
                service: service, path: StateFile.defaultPath(environment: .process), mode: settings.resume,
                loop: loop, log: log),
            status, watchdog, drift, idleExit,
        ]
    }

    /// Runs until SIGTERM or SIGINT (or the idle exit); returns the process exit code.
    public func run() -> Int32 {
        // `main` blocked the signals before any thread existed (ProcessSignals.prepare); the
        // signalfd is how they arrive. Blocking here again covers an embedder that did not.
        let signals = playbackd_signalfd()
        loop.watch(signals) { [unowned self] _ in handleSignal(playbackd_signalfd_read(signals)) }
        service.onChanges = { [unowned self] changes in publish(changes) }
        for subsystem in subsystems {
            do throws(SubsystemError) {
                try subsystem.start()
            } catch {
                log.error(error.description, event: "failed")
                return 1
            }
        }
        notifier.ready(status: status.line)
        let snapshot = service.snapshot()
        for subsystem in subsystems { subsystem.ready(snapshot) }
        loop.run()
        for subsystem in subsystems.reversed() { subsystem.stop() }
        log.notice("stopped", event: "stopped")
        return 0
    }

    private func publish(_ changes: ChangeSet) {
        let snapshot = service.snapshot()
        for subsystem in subsystems { subsystem.publish(snapshot, changes: changes) }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            log.notice("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), shutting down", event: "stopping")
            beginStopping()
        case SIGHUP: reload()
        default: break
        }
    }

    /// Takes no new work, lets the device play out what it holds and fades the rest (no click),
    /// and ends the loop; `run` then stops every subsystem and returns 0.
    private func beginStopping() {
        notifier.stopping()
        for subsystem in subsystems.reversed() { subsystem.beginStopping() }
        // The position saved is the last one heard, after the fade.
        service.holdPosition(engine.fadeOut())
        loop.stop()
    }

    /// SIGHUP: re-reads the configuration file (flags still win) and applies what can change
    /// while running; playback is not interrupted. An invalid file keeps the current settings.
    private func reload() {
        notifier.reloading()
        defer { notifier.ready(status: status.line) }
        let new: DaemonSettings
        do {
            new = try options.settings(environment: .process)
        } catch {
            log.error("reload: \(error); keeping the current configuration", event: "reload-failed")
            return
        }
        var applied = new
        for spec in SettingsCatalog.all {
            if let keep = spec.keepOnReload, keep(&applied, settings) {
                log.warning("reload: \(spec.name) changes take effect when playbackd restarts")
            }
        }
        logOutput.threshold = applied.logLevel
        logOutput.target = applied.logTarget
        service.apply(applied, replacing: settings)
        settings = applied
        for subsystem in subsystems { subsystem.reload(applied) }
        log.notice("reloaded the configuration", event: "reloaded")
    }
}

/// The output device as a subsystem: released at the end, after the last save.
private final class EngineDevice: Subsystem {
    private let engine: PlaybackEngine
    init(engine: PlaybackEngine) { self.engine = engine }
    func stop() { engine.releaseDevice() }
}
