import PlaybackEngine
import PlaybackModel

/// Watches the output route where it can change, chosen by what the device turned out to be
/// when playback opened it (`watch`, called by the engine driver as a pipeline starts: the
/// connection to a sound server is made while the stream starts up, not once it plays): a
/// sound server's stream is watched through the server (`SoundServerWatch`), a card's own PCM
/// through its jack controls (a `JackMonitor`), and anything else (a file, a null device) not
/// at all. Both sleep on descriptors in the event loop: no thread, no timer. Each change goes
/// one way, to the player service, which pauses or resumes.
final class RouteWatch: Subsystem {
    private let loop: EventLoop
    private let openJackMonitor: JackMonitorFactory
    private let log: DaemonLog
    /// Where the changes seen go (`PlayerService.receive`).
    private let report: (SubsystemReport) -> Void
    private var soundServer: SoundServerWatch?
    private var jacks: (any JackMonitor)?
    /// False once libpulse turned out not to load: said once, not at every play.
    private var canWatchServer = true

    init(
        loop: EventLoop, openJackMonitor: @escaping JackMonitorFactory, log: DaemonLog,
        report: @escaping (SubsystemReport) -> Void
    ) {
        self.loop = loop
        self.openJackMonitor = openJackMonitor
        self.log = log
        self.report = report
    }

    func stop(_ last: PlayerView) {
        soundServer?.disconnect()
        soundServer = nil
        closeJacks()
    }

    /// Each device a pipeline opened is watched.
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        for case .deviceOpened(let device) in events { watch(device) }
    }

    /// Starts the watcher `device` needs, once.
    private func watch(_ device: OpenDevice) {
        if device.isServerStream {
            guard canWatchServer else { return }
            guard SoundServerWatch.libraryLoads() else {
                canWatchServer = false
                return log.warning("cannot watch the sound server for route changes: libpulse.so.0 cannot be loaded")
            }
            if soundServer == nil {
                soundServer = SoundServerWatch(
                    loop: loop, onChange: { [report] in report(.routeChanged($0)) },
                    onEnd: { [unowned self] reason in
                        log.info("stopped watching the sound server: \(reason); watching again at the next play")
                    })
            }
            if soundServer?.isConnected == false {
                soundServer?.connect()
                log.log(.debug, "watching the sound server for route changes")
            }
        } else if let device = device.hardware, jacks?.device != device {
            closeJacks()
            do throws(SinkError) {
                let monitor = try openJackMonitor(device)
                jacks = monitor
                for descriptor in monitor.fileDescriptors {
                    loop.watch(descriptor) { [unowned self] _ in readJacks() }
                }
                log.log(.debug, "watching card \(device.card)'s jacks for route changes")
            } catch {
                log.warning("cannot watch card \(device.card)'s jacks: \(error)")
            }
        }
    }

    private func readJacks() {
        guard let jacks else { return }
        let descriptors = jacks.fileDescriptors
        let changes = jacks.readEvents()
        if jacks.fileDescriptors.isEmpty {  // the card is gone
            for descriptor in descriptors { loop.unwatch(descriptor) }
            self.jacks = nil
        }
        for change in changes { report(.routeChanged(change)) }
    }

    private func closeJacks() {
        for descriptor in jacks?.fileDescriptors ?? [] { loop.unwatch(descriptor) }
        jacks?.close()
        jacks = nil
    }
}
