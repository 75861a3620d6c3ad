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
/// and stop in reverse order. Signals arrive on the event loop. The composition root passes
/// in the concrete audio backends: the sink, the decoders and the jack monitor.
public final class Daemon {
    private let options: DaemonOptions
    private var settings: DaemonSettings
    private let loop = EventLoop()
    private let logOutput: LogOutput
    private let log: DaemonLog
    private let notifier = SystemdNotifier()
    private let service: PlayerService
    /// The music library; nil without a cache and a state directory to keep it in.
    private let library: MusicLibrary?
    /// The listening history; nil without a state directory to keep it in.
    private let history: ListeningHistory?
    private let openJackMonitor: JackMonitorFactory
    private let status: SystemdStatus
    /// Every subsystem, in start order; they stop in reverse order. Adding one is one entry.
    private var subsystems: [any Subsystem] = []

    /// `openDecoder` opens files for playback; `probeDecoder` for enqueueing, with pictures;
    /// `fetchPlaylist` fetches a playlist by URL;
    /// `openJackMonitor` watches a card's jacks.
    public init(
        options: DaemonOptions, settings: DaemonSettings, sink: any AudioSink,
        openDecoder: @escaping AudioDecoderFactory, probeDecoder: @escaping AudioDecoderFactory,
        fetchPlaylist: @escaping @Sendable (_ url: String, _ maximumBytes: Int) throws(DecoderError) -> [UInt8],
        openJackMonitor: @escaping JackMonitorFactory
    ) {
        self.openJackMonitor = openJackMonitor
        self.options = options
        self.settings = settings
        logOutput = LogOutput(threshold: settings.logLevel, target: settings.logTarget)
        log = DaemonLog(label: "playbackd", output: logOutput)
        let engineLog = DaemonLog(label: "playbackd.engine", output: logOutput)
        let bookmarkStore = BookmarkStore(
            path: BookmarkStore.defaultPath(environment: .process), loop: loop, log: engineLog)
        service = PlayerService(
            state: PlayerState(
                settings: settings, bookmarks: bookmarkStore.load(minimumDuration: settings.bookmarkMinimumSeconds)),
            driver: EngineDriver(
                engine: PlaybackEngine(sink: sink, openDecoder: openDecoder, realtime: settings.realtime),
                pauseHoldSeconds: settings.pauseHoldSeconds, log: engineLog),
            prober: ItemProber(
                openDecoder: probeDecoder,
                artwork: ArtworkStore(directory: ArtworkStore.defaultDirectory(environment: .process)),
                fetchPlaylist: fetchPlaylist),
            presets: EqualizerPresets(directory: EqualizerPresets.defaultDirectory(environment: .process)),
            bookmarkStore: bookmarkStore,
            phraseAnalyzer: PhraseAnalyzer(
                open: openDecoder, cache: PhraseCache(directory: PhraseCache.defaultDirectory(environment: .process)),
                loop: loop),
            loudnessAnalyzer: LoudnessAnalyzer(open: openDecoder, loop: loop),
            loop: loop, log: engineLog)
        status = SystemdStatus(notifier: notifier, log: DaemonLog(label: "playbackd.control", output: logOutput))
        if let indexPath = LibraryLocations.indexPath(environment: .process),
            let userPath = LibraryLocations.userPath(environment: .process)
        {
            library = MusicLibrary(
                roots: LibraryLocations.roots(configured: settings.libraryDirectories, environment: .process),
                indexPath: indexPath, userPath: userPath, openTags: openDecoder,
                analysis: settings.replayGain.analysis, loop: loop,
                log: DaemonLog(label: "playbackd.library", output: logOutput),
                report: { [unowned service] in service.receive($0) })
        } else {
            library = nil
        }
        let (loop, historyLog) = (loop, DaemonLog(label: "playbackd.history", output: logOutput))
        history = ListeningHistory.defaultPath(environment: .process).map {
            ListeningHistory(path: $0, scrobbling: settings.scrobbling, loop: loop, log: historyLog)
        }
        subsystems = makeSubsystems()
    }

    /// The subsystems in start order. The socket starts first (a client can connect while the
    /// rest starts; it is answered once the loop runs) and closes last.
    private func makeSubsystems() -> [any Subsystem] {
        let router = CommandRouter(service: service, library: library, history: history)
        let report = { [unowned service] (report: SubsystemReport) in service.receive(report) }
        let handle = { (command: Command, reply: @escaping (CommandResult) -> Void) in
            router.handle(command, reply: reply)
        }
        let socket = SocketFrontEnd(
            path: SocketPath.resolve(explicit: settings.socket, environment: .process),
            device: settings.snapcast.map { "snapcast \($0)" } ?? settings.device,
            loop: loop, log: log, control: DaemonLog(label: "playbackd.control", output: logOutput), perform: handle,
            report: report)
        let idleExit = IdleExit(
            loop: loop, seconds: settings.idleExitSeconds, log: log, exit: { [unowned self] in beginStopping() })
        let watchdog = HealthWatchdog(
            loop: loop, notifier: notifier,
            isOutputHealthy: { [unowned service] in
                service.driver.outputAge.map { $0 < HealthWatchdog.maximumOutputSilence } ?? false
            },
            onStall: { [unowned self] in
                log.error(
                    "the output has not advanced for \(HealthWatchdog.maximumOutputSilence) s while playing: "
                        + "withholding the watchdog ping", event: "stalled")
            })
        let drift = AnchorDriftMonitor(
            loop: loop, measure: { [unowned service] in service.view().nowPlaying },
            republish: { [unowned service] in service.republishPosition() })
        let mpris = MPRISFrontEnd(
            enabled: settings.mpris, loop: loop, environment: .process,
            log: DaemonLog(label: "playbackd.mpris", output: logOutput), handle: handle,
            current: { [unowned service] in service.view() }, quit: { [unowned self] in beginStopping() })
        let mpd = MPDFrontEnd(
            addresses: settings.mpdListen.compactMap { try? MPDListenAddress.parse($0).get() },
            roots: LibraryLocations.roots(configured: settings.libraryDirectories, environment: .process),
            device: settings.snapcast.map { "snapcast \($0)" } ?? settings.device,
            playlists: StoredPlaylists.defaultDirectory(environment: .process).map(StoredPlaylists.init),
            settings: settings, loop: loop,
            log: DaemonLog(label: "playbackd.mpd", output: logOutput), perform: handle,
            current: { [unowned self] in
                var view = service.view()
                view.library = library?.status
                return view
            })
        let restorer = ResumeRestorer(service: service)
        let route = RouteWatch(
            loop: loop, openJackMonitor: openJackMonitor, log: DaemonLog(label: "playbackd.route", output: logOutput),
            report: report)
        return [socket, mpris, mpd] + (library.map { [$0] } ?? []) + (history.map { [$0] } ?? []) + [
            EngineDevice(driver: service.driver, log: log), ResidentCode(loop: loop, log: log),
            route,
            ResumePersistence(
                path: StateFile.defaultPath(environment: .process), mode: settings.resume, loop: loop, log: log,
                restoring: ResumePersistence.Restoring(
                    restore: { [restorer, unowned service, mode = settings.resume] saved in
                        // A stream is not checked (that would wait on its server); its format is
                        // known from when it was enqueued, so playing it does not wait either.
                        restorer.restore(
                            saved, fileExists: { StreamURL.isStream($0) || access($0, F_OK) == 0 },
                            play: mode == .playing)
                        return service.view()
                    },
                    showHead: { [restorer] head, loading in restorer.restoreHead(head, loading: loading) },
                    abandon: { [restorer] in restorer.abandonLoading() }),
                current: { [unowned service] in service.view() }),
            status, watchdog, drift, idleExit,
        ]
    }

    /// Runs until SIGTERM or SIGINT (or the idle exit); returns the process exit code.
    public func run() -> Int32 {
        // `main` blocked the signals before any thread existed (ProcessSignals.prepare); the
        // signalfd is how they arrive. Blocking here again covers an embedder that did not.
        let signals = playbackd_signalfd()
        loop.watch(signals) { [unowned self] _ in handleSignal(playbackd_signalfd_read(signals)) }
        service.onPublish = { [unowned self] view, changes, events in publish(view, changes, events) }
        for subsystem in subsystems {
            do throws(SubsystemError) {
                try subsystem.start()
            } catch {
                log.error(error.description, event: "failed")
                return 1
            }
        }
        let view = service.view()
        notifier.ready(status: SystemdNotifier.summary(view.nowPlaying))
        for subsystem in subsystems { subsystem.ready(view) }
        loop.run()
        let last = service.view()
        for subsystem in subsystems.reversed() { subsystem.stop(last) }
        service.stopWorkers()
        if !PlaybackEngine.waitForTransfersToEnd(timeout: 3) {
            log.warning("a stream's transfer did not end within 3 s")
        }
        reportThreadsLeft()
        log.notice("stopped", event: "stopped")
        return 0
    }

    /// Hands a step's changes and events to every subsystem, with the library's status.
    private func publish(_ view: PlayerView, _ changes: ChangeSet, _ events: [PlayerEvent]) {
        var view = view
        view.library = library?.status
        for subsystem in subsystems { subsystem.publish(view, changes: changes, events: events) }
    }

    /// Every thread but this one has ended by now; a thread still running is a part that no
    /// subsystem stopped, which is said (the test of the exit looks for the debug line).
    private func reportThreadsLeft() {
        let threads = ProcessThreads.names()
        log.log(.debug, "threads at exit: \(threads.joined(separator: ", "))")
        if threads.count > 1 {
            log.warning("threads still running at exit: \(threads.dropFirst().joined(separator: ", "))")
        }
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
        service.fadeOutForExit()
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
        let (applied, kept) = new.reloaded(over: settings)
        for name in kept { log.warning("reload: \(name) changes take effect when playbackd restarts") }
        logOutput.threshold = applied.logLevel
        logOutput.target = applied.logTarget
        service.apply(applied, replacing: settings)
        settings = applied
        for subsystem in subsystems { subsystem.reload(applied) }
        log.notice("reloaded the configuration", event: "reloaded")
    }
}

/// The output device as a subsystem: released at the end, after the last save, and closed
/// before the process ends (a device still opening is given 2 s).
private final class EngineDevice: Subsystem {
    private let driver: EngineDriver
    private let log: DaemonLog
    init(driver: EngineDriver, log: DaemonLog) {
        self.driver = driver
        self.log = log
    }
    func stop(_ last: PlayerView) {
        if !driver.releaseAll(waiting: 2) { log.warning("the audio device did not close within 2 s") }
    }
}
