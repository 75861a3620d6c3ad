import ControlProtocol
import Foundation
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// `PlayerService` driven in-process, with real libmpg123 decoding and a fake output device:
/// its answers are domain results (`CommandResult`), the same for every front end.
@Suite(.serialized) struct PlayerServiceTests {
    let sink = FakeAudioSink()
    let loop = EventLoop()
    let service: PlayerService
    /// The front ends' one handler, with no library.
    var router: CommandRouter { CommandRouter(service: service, library: nil, history: nil) }

    init() {
        let engine = PlaybackEngine(
            sink: sink, openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path) },
            realtime: false)
        let prober = ItemProber(
            openDecoder: { request throws(DecoderError) in try MPG123Decoder(path: request.path, readsPictures: true) },
            artwork: ArtworkStore(directory: NSTemporaryDirectory() + "playbackd-service-tests-artwork"))
        let log = DaemonLog(label: "test", output: LogOutput(threshold: .error, target: .stderr))
        service = PlayerService(
            state: PlayerState(settings: DaemonSettings()),
            driver: EngineDriver(engine: engine, pauseHoldSeconds: 10, log: log),
            prober: prober, presets: EqualizerPresets(directory: nil),
            bookmarkStore: BookmarkStore(path: nil, loop: loop, log: log),
            phraseAnalyzer: PhraseAnalyzer(
                open: { request throws(DecoderError) in try MPG123Decoder(path: request.path) },
                cache: PhraseCache(directory: nil), loop: loop),
            loudnessAnalyzer: LoudnessAnalyzer(
                open: { request throws(DecoderError) in try MPG123Decoder(path: request.path) }, loop: loop),
            loop: loop, log: log)
    }

    /// Reloads the default settings changed by `change`, as SIGHUP does.
    private func reload(_ change: (inout DaemonSettings) -> Void) {
        var new = DaemonSettings()
        change(&new)
        service.apply(new, replacing: DaemonSettings())
    }

    private var playback: PlaybackState { service.state.transport }

    /// The items the engine would be handed now.
    private var engineItems: (current: EngineItem, upcoming: [EngineItem])? {
        var state = service.state
        return state.engineItems(startingAt: state.heldFrame)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/generated").path

    /// Probes fixtures and adds them, as an `enqueue` does once the prober is done.
    private func enqueue(_ names: [String], play: Bool = false) -> CommandResult {
        let (items, rejected) = service.prober.probe(
            names.map { Self.fixtures + "/" + $0 }, limit: 10, ids: service.itemIDs)
        return service.step { state, moment in
            state.enqueue(items, rejected: rejected, placement: .end, replace: false, play: play, at: moment)
        }
    }

    /// Sends `command` as a front end does and returns its answer.
    private func send(_ command: Command) -> CommandResult? {
        var answer: CommandResult?
        router.handle(command) { answer = $0 }
        return answer
    }

    @Test(
        "play, pause and stop answer before the engine follows; a start that opens the item's file answers after it, with its failure; a command sent meanwhile waits for the step"
    )
    func answersBeforeTheEngine() throws {
        let directory = NSTemporaryDirectory() + "playbackd-answers-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/long.mp3"
        try FileManager.default.copyItem(atPath: Self.fixtures + "/long.mp3", toPath: path)
        let (items, _) = service.prober.probe([path], limit: 1, ids: service.itemIDs)
        service.step { state, moment in
            state.enqueue(items, rejected: [], placement: .end, replace: false, play: false, at: moment)
        }
        /// The answer, and whether a pipeline ran when it came.
        func answer(_ command: Command) -> (CommandResult?, Bool?) {
            var answered: (CommandResult?, Bool?) = (nil, nil)
            router.handle(command) { answered = ($0, service.driver.isRunning) }
            return answered
        }
        #expect(answer(.player(.play)) == (.success(.done), true), "the item's file was opened first")
        #expect(answer(.player(.pause)) == (.success(.done), true), "answered before the halt")
        #expect(!service.driver.isRunning)
        #expect(
            answer(.player(.play)) == (.success(.done), false), "the pause kept the decoder: answered before the start")
        #expect(service.driver.isRunning)

        // The next command, sent from within the early answer, runs once the step is done.
        var order: [String] = []
        router.handle(.player(.pause)) { _ in
            order.append("pause answered")
            router.handle(.nowPlaying) { _ in order.append("nowPlaying answered") }
            order.append("pause's answer returned")
        }
        #expect(order == ["pause answered", "pause's answer returned", "nowPlaying answered"])

        #expect(answer(.player(.stop)) == (.success(.done), false))
        try FileManager.default.removeItem(atPath: path)
        guard case (.failure(let failure), false) = answer(.player(.play)) else {
            Issue.record("play of a vanished file did not fail")
            return
        }
        #expect(failure.status == .noSuchContent && failure.message.contains("long.mp3"), "\(failure.message)")
        #expect(service.state.queue.count == 1, "the queue is kept")
    }

    @Test(
        "while a long queue is read, nowPlaying shows its head where it stands in the whole; other commands wait, and are answered in order once it is whole"
    )
    func loadingQueue() throws {
        let (items, _) = service.prober.probe(
            ["one.mp3", "long.mp3", "two.mp3"].map { Self.fixtures + "/" + $0 }, limit: 3, ids: ItemIDs())
        let saved = ResumeState(
            items: items, currentIndex: 1, position: 2, state: .paused, repeatMode: .off, shuffleMode: .off,
            shuffledOrder: nil, disabledCommands: [])
        var head = saved
        (head.items, head.currentIndex) = ([items[1]], 0)
        let restorer = ResumeRestorer(service: service)
        restorer.restoreHead(head, loading: QueueLoading(index: 1, count: 3))
        let shown = service.view()
        #expect(shown.isLoading)
        #expect(shown.nowPlaying.queueIndex == 1 && shown.nowPlaying.queueCount == 3)
        #expect(shown.nowPlaying.item?.id == items[1].id && shown.nowPlaying.elapsed == 2)
        #expect(send(.nowPlaying) != nil && send(.player(.commands)) != nil, "answered at once")
        var answered: [String] = []
        router.handle(.player(.nextTrack)) { answered.append("nextTrack \($0)") }
        router.handle(.player(.pause)) { answered.append("pause \($0)") }
        #expect(answered.isEmpty, "waiting for the whole queue")

        restorer.restore(saved, fileExists: { _ in true }, play: false)
        #expect(answered == ["nextTrack \(CommandResult.success(.done))", "pause \(CommandResult.success(.done))"])
        let whole = service.view()
        #expect(!whole.isLoading && whole.resume.items.count == 3)
        #expect(whole.nowPlaying.queueIndex == 2 && whole.nowPlaying.item?.id == items[2].id)
    }

    @Test("transport and seeking answer with domain results; the landed position is exact")
    func transport() throws {
        guard case .success(.enqueued(let outcome)) = enqueue(["long.mp3", "one.mp3"]) else {
            Issue.record("enqueue failed")
            return
        }
        #expect(outcome.added.count == 2 && outcome.rejected.isEmpty && outcome.queueCount == 2)
        #expect(send(.player(.play)) == .success(.done))
        #expect(playback == .playing)
        #expect(send(.player(.changePlaybackPosition(position: 12.5))) == .success(.position(12.5)))
        #expect(send(.player(.pause)) == .success(.done))
        #expect(playback == .paused)
        // The fake device took at most one second of audio after the seek.
        guard case .success(.nowPlaying(let paused)) = send(.nowPlaying) else {
            Issue.record("no snapshot")
            return
        }
        #expect(paused.item?.metadata.title == "Long" && paused.rate == 0)
        #expect(paused.elapsed >= 12.5 && paused.elapsed <= 13.5, "held at \(paused.elapsed)")
        guard case .success(.position(let landed)) = send(.player(.skipForward(interval: 10))) else {
            Issue.record("skip failed")
            return
        }
        #expect(abs(landed - (paused.elapsed + 10)) < 1e-6, "skips from the held position: \(landed)")
        #expect(send(.player(.changePlaybackPosition(position: 30))) == .success(.position(30)), "exact while paused")
        #expect(send(.player(.stop)) == .success(.done))
    }

    @Test("failures carry the status every front end reports: disabled, nothing current, no such item, no device")
    func failures() {
        #expect(send(.player(.pause)) == .failure(CommandFailure(.noActionableNowPlayingItem, "nothing is playing")))
        guard case .failure(let jump) = send(.player(.jump(index: 3))) else {
            Issue.record("jump succeeded")
            return
        }
        #expect(jump.status == .noSuchContent)
        _ = send(.player(.setCommandEnabled(.nextTrack, enabled: false)))
        #expect(send(.player(.nextTrack)) == .failure(CommandFailure(.commandDisabled, "nextTrack is disabled")))
        _ = enqueue(["one.mp3"])
        sink.isMissing = true
        #expect(send(.player(.play)) == .success(.done), "the reply does not wait for the device")
        // The output thread opens the device; its failure comes as an engine event.
        var events = pollfd(fd: service.driver.events.fileDescriptor, events: Int16(POLLIN), revents: 0)
        for _ in 0..<100 where playback != .interrupted {
            if poll(&events, 1, 200) > 0 { service.handleEngineEvents() }
        }
        #expect(playback == .interrupted, "the position is kept for a retry")
        #expect(service.view().nowPlaying.deviceError == "cannot open audio device 'fake': open: no such device")
    }

    @Test("an enqueue of nothing playable fails and still reports what it turned away")
    func enqueueRejections() {
        guard case .failure(let failure) = enqueue(["no-such-file.mp3"]) else {
            Issue.record("a missing file was enqueued")
            return
        }
        #expect(failure.status == .noSuchContent)
        guard case .enqueued(let outcome)? = failure.outcome else {
            Issue.record("no rejections")
            return
        }
        #expect(outcome.added.isEmpty && outcome.rejected.count == 1 && outcome.queueCount == nil)
        #expect(Response(.failure(failure), snapshots: SnapshotEncoding()).json["rejected"]?.arrayValue?.count == 1, "the socket's reply keeps them")
    }

    @Test("a lost route pauses what plays and keeps the position; only that pause resumes on a new device, if asked")
    func routeChanges() {
        guard case .success = enqueue(["long.mp3"], play: true) else {
            Issue.record("enqueue failed")
            return
        }
        let lost = RouteChange(reason: .oldDeviceUnavailable, device: "Headphones", timestamp: 1)
        let new = RouteChange(reason: .newDeviceAvailable, device: "Speakers", timestamp: 2)
        #expect(send(.player(.changePlaybackPosition(position: 5))) == .success(.position(5)))
        service.receive(.routeChanged(lost))
        #expect(playback == .paused)
        #expect(service.view().nowPlaying.routeChange == lost)
        #expect(
            abs(service.view().nowPlaying.elapsed - 5) < 1.1, "paused where it was heard (the fake device holds 1 s)")
        service.receive(.routeChanged(new))
        #expect(playback == .paused, "on-route-back = stay-paused (the default)")

        reload { $0.onRouteBack = .resume }
        #expect(send(.player(.play)) == .success(.done))
        service.receive(.routeChanged(lost))
        service.receive(.routeChanged(new))
        #expect(playback == .playing, "resumed: the pause was the lost device's")
        #expect(service.view().nowPlaying.routeChange == new)

        service.receive(.routeChanged(lost))
        #expect(send(.player(.pause)) == .success(.done))
        #expect(send(.player(.play)) == .success(.done))
        #expect(send(.player(.pause)) == .success(.done))
        service.receive(.routeChanged(new))
        #expect(playback == .paused, "a pause asked for after the loss is not resumed by a device")

        reload { $0.onRouteLost = .continue }
        #expect(send(.player(.play)) == .success(.done))
        service.receive(.routeChanged(lost))
        #expect(playback == .playing, "on-route-lost = continue")
    }

    @Test(
        "with rate-min-length, short items (songs) play at 1 and long ones at the chosen rate, each in its own pipeline"
    )
    func rateByLength() {
        reload { $0.rateMinimumSeconds = 30 }  // long.mp3 is 40 s, one.mp3 and two.mp3 about 1 s
        guard case .success = enqueue(["one.mp3", "two.mp3", "long.mp3"], play: true) else {
            Issue.record("enqueue failed")
            return
        }
        #expect(send(.player(.changePlaybackRate(.to(1.5)))) == .success(.done))
        #expect(service.view().nowPlaying.defaultRate == 1.5)
        #expect(service.driver.observe().runningRate == 1, "a 1 s item plays at 1")
        #expect(
            engineItems?.upcoming.map { $0.path.hasSuffix("/two.mp3") } == [true],
            "the pipeline stops before the long item")
        #expect(send(.player(.jump(index: 2))) == .success(.done))
        #expect(service.driver.observe().runningRate == 1.5, "the 40 s item takes the chosen rate")
        reload { $0.rateMinimumSeconds = 60 }
        #expect(service.driver.observe().runningRate == 1, "a longer minimum: the playing item goes back to 1 at once")
        reload { $0.rateMinimumSeconds = 0 }
        #expect(service.driver.observe().runningRate == 1.5)
        #expect(send(.player(.jump(index: 0))) == .success(.done))
        #expect(service.driver.observe().runningRate == 1.5, "0: every item takes the rate")
        #expect(engineItems?.upcoming.count == 2)
    }
}
