import CShim
import ControlProtocol
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The running daemon: the control loop with the socket server, the player service, the
/// engine, signals, the configuration and systemd's notifications and watchdog. The
/// composition root passes in the concrete audio backends.
public final class Daemon {
    private let options: DaemonOptions
    private var settings: DaemonSettings
    private let loop = ControlLoop()
    private let logOutput: LogOutput
    private let log: DaemonLog
    private let control: DaemonLog
    private let notifier = SystemdNotifier()
    private let engine: PlaybackEngine
    private let service: PlayerService
    private var server: ControlServer?
    private var watchdog: HealthWatchdog?
    private let idleTimer: OneShotTimer
    private var driftMonitor: AnchorDriftMonitor?
    private var lastStatus = ""
    private var persister: StatePersister?
    /// Saves the position every `StatePersister.playingInterval` while playing.
    private let saveTimer: OneShotTimer

    /// `openDecoder` opens files for playback; `probeDecoder` for enqueueing, with pictures.
    public init(
        options: DaemonOptions, settings: DaemonSettings, sink: any AudioSink,
        openDecoder: @escaping AudioDecoderFactory, probeDecoder: @escaping AudioDecoderFactory
    ) {
        self.options = options
        self.settings = settings
        logOutput = LogOutput(threshold: settings.logLevel, target: settings.logTarget)
        log = DaemonLog(label: "playbackd", output: logOutput)
        control = DaemonLog(label: "playbackd.control", output: logOutput)
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
        idleTimer = OneShotTimer(loop: loop)
        saveTimer = OneShotTimer(loop: loop)
    }

    /// Runs until SIGTERM or SIGINT (or the idle exit); returns the process exit code.
    public func run() -> Int32 {
        // `main` blocked the signals before any thread existed (ProcessSignals.prepare); the
        // signalfd is how they arrive. Blocking here again covers an embedder that did not.
        let signals = playbackd_signalfd()
        let path = SocketPath.resolve(explicit: settings.socket, environment: .process)
        let listener: UnixListener
        do {
            listener = try UnixListener.open(path: path)
        } catch {
            log.error(error.description, event: "failed")
            return 1
        }
        let server = ControlServer(loop: loop, listener: listener, log: control) { [unowned self] request, reply in
            service.handle(request.command) { reply(Response($0)) }
        }
        self.server = server
        server.onClientCountChanged = { [unowned self] _ in evaluateIdleExit() }
        service.onChanges = { [unowned self] changes in publish(changes) }
        driftMonitor = AnchorDriftMonitor(
            loop: loop, measure: { [unowned self] in service.snapshot() },
            republish: { [unowned self] in publish(.position) })
        loop.watch(signals) { [unowned self] _ in handleSignal(playbackd_signalfd_read(signals)) }
        watchdog = HealthWatchdog(
            loop: loop, notifier: notifier,
            isOutputHealthy: { [unowned self] in
                engine.measuredPosition().map { $0.age < HealthWatchdog.maximumOutputSilence } ?? false
            },
            onStall: { [unowned self] in
                log.error(
                    "the output has not advanced for \(HealthWatchdog.maximumOutputSilence) s while playing: "
                        + "withholding the watchdog ping", event: "stalled")
            })
        log.notice(
            "listening on \(listener.boundPath ?? "the socket systemd passed"), device '\(settings.device)'",
            event: "started")
        restoreState()
        lastStatus = SystemdNotifier.summary(service.snapshot())
        notifier.ready(status: lastStatus)
        watchdog?.start(isPlaying: service.state == .playing)
        evaluateIdleExit()
        loop.run()
        saveTimer.cancel()
        persister?.saveNow(service.resumeState())
        engine.releaseDevice()
        server.shutdown()
        log.notice("stopped", event: "stopped")
        return 0
    }

    private func publish(_ changes: ChangeSet) {
        let snapshot = service.snapshot()
        server?.broadcast(Event(changes: changes, nowPlaying: snapshot))
        driftMonitor?.pushed(snapshot)
        let status = SystemdNotifier.summary(snapshot)
        if status != lastStatus {
            lastStatus = status
            notifier.status(status)
        }
        if changes.contains(.state) || changes.contains(.item) {
            control.log(.info, status, event: snapshot.state.rawValue, track: snapshot.item?.path)
        }
        watchdog?.update(isPlaying: snapshot.state == .playing)
        evaluateIdleExit()
        if !changes.isDisjoint(with: [.queue, .item, .position, .state, .commands, .modes]) { persist() }
    }

    /// Reads the state file (when there is one) and hands it to the service. A file that
    /// cannot be read as a state is set aside with a warning; the daemon starts empty.
    private func restoreState() {
        guard let path = StateFile.defaultPath(environment: .process) else {
            return log.warning("no state directory (neither STATE_DIRECTORY, XDG_STATE_HOME nor HOME): resume is off")
        }
        let file = StateFile(path: path)
        persister = StatePersister(file: file, loop: loop, log: log)
        guard settings.resume != .off else { return }
        switch file.load() {
        case .none:
            break
        case .corrupt(let error, let aside):
            log.warning(
                "the state file \(path) is unreadable (\(error)); "
                    + (aside.map { "moved it to \($0)" } ?? "could not move it aside") + "; starting empty",
                event: "state-corrupt")
        case .state(let saved):
            service.restore(saved, fileExists: { access($0, F_OK) == 0 }, play: settings.resume == .playing)
            log.info(
                "resumed \(service.queue.count) items from \(path)"
                    + (service.queue.currentIndex.map { ", at item \($0)" } ?? ""), event: "resumed")
        }
    }

    /// Saves the resume state on the worker; while playing, again every few seconds.
    private func persist() {
        guard let persister else { return }
        persister.save(service.resumeState())
        if service.state == .playing {
            if !saveTimer.isArmed {
                saveTimer.arm(after: StatePersister.playingInterval) { [unowned self] in persist() }
            }
        } else {
            saveTimer.cancel()
        }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT: shutDown(signal == SIGTERM ? "SIGTERM" : "SIGINT")
        case SIGHUP: reload()
        default: break
        }
    }

    /// Refuses new clients, lets the device play out what it holds and fades the rest (no
    /// click), and stops the loop; `run` then closes everything and returns 0.
    private func shutDown(_ reason: String) {
        log.notice("received \(reason), shutting down", event: "stopping")
        notifier.stopping()
        server?.stopAccepting()
        idleTimer.cancel()
        // The position saved is the last one heard, after the fade.
        service.holdPosition(engine.fadeOut())
        loop.stop()
    }

    /// SIGHUP: re-reads the configuration file (flags still win) and applies what can change
    /// while running; playback is not interrupted. An invalid file keeps the current settings.
    private func reload() {
        notifier.reloading()
        defer { notifier.ready(status: lastStatus) }
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
        log.notice("reloaded the configuration", event: "reloaded")
        idleTimer.cancel()  // re-armed with the new idle time, if still idle
        evaluateIdleExit()
    }

    /// With `idle-exit` set: exit once stopped with an empty queue and no client for that long.
    private func evaluateIdleExit() {
        let isIdle = settings.idleExitSeconds > 0 && service.isIdle && (server?.clientCount ?? 0) == 0
        guard isIdle else { return idleTimer.cancel() }
        guard !idleTimer.isArmed else { return }
        idleTimer.arm(after: settings.idleExitSeconds) { [unowned self] in
            log.notice("idle for \(settings.idleExitSeconds) s with nothing queued: exiting", event: "idle-exit")
            notifier.stopping()
            server?.stopAccepting()
            loop.stop()
        }
    }
}
