import CPulseShim
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a PulseAudio (or pipewire-pulse) server for route changes through libpulse's
/// introspection and subscription API: its sinks, their ports, and which sink the daemon's own
/// stream (ALSA's pulse plugin, in this process) plays on. The libpulse context runs on the
/// event loop (`playbackd_pulse_api_new`): it sleeps in the loop's epoll_wait with no thread
/// and no timer of its own. Event loop only.
final class SoundServerWatch {
    private let api: UnsafeMutablePointer<pa_mainloop_api>
    private var context: OpaquePointer?
    private var routes = SoundServerRoutes()
    /// Sinks of the first listing, until it ends.
    private var listing: [SoundServerRoutes.Sink] = []
    private let processID = String(Int(getpid()))
    /// Tears down a failed context outside libpulse's own callback.
    private let teardown: OneShotTimer
    private let onChange: (RouteChange) -> Void
    private let onEnd: (String) -> Void

    /// `onChange` receives each route change; `onEnd` why the connection ended (the server
    /// went away, or refused it); `connect` may be called again after that.
    init(loop: EventLoop, onChange: @escaping (RouteChange) -> Void, onEnd: @escaping (String) -> Void) {
        api = playbackd_pulse_api_new(loop.event)
        teardown = OneShotTimer(loop: loop)
        self.onChange = onChange
        self.onEnd = onEnd
    }

    deinit {
        disconnect()
        playbackd_pulse_api_free(api)
    }

    var isConnected: Bool { context != nil }

    /// Whether libpulse loads (it is loaded the first time this is asked, and stays).
    static func libraryLoads() -> Bool { playbackd_pulse_load() == 1 }

    /// Loads libpulse (the first time) and connects to the server the pulse plugin uses
    /// (`PULSE_SERVER`, or the runtime directory's socket), never starting one. The answer
    /// arrives on the loop.
    func connect() {
        guard context == nil else { return }
        guard playbackd_pulse_load() == 1 else {
            return teardown.arm(after: 0) { [unowned self] in onEnd("libpulse.so.0 cannot be loaded") }
        }
        guard let context = playbackd_pa_context_new(api, "playbackd route watch") else { return }
        self.context = context
        let me = Unmanaged.passUnretained(self).toOpaque()
        playbackd_pa_context_set_state_callback(context, { _, me in SoundServerWatch.watch(me).stateChanged() }, me)
        playbackd_pa_context_set_subscribe_callback(
            context, { _, type, index, me in SoundServerWatch.watch(me).serverEvent(type, index) }, me)
        if playbackd_pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            end(String(cString: playbackd_pa_strerror(playbackd_pa_context_errno(context))))
        }
    }

    /// Closes the connection; no callback follows.
    func disconnect() {
        guard let context else { return }
        playbackd_pa_context_set_state_callback(context, nil, nil)
        playbackd_pa_context_set_subscribe_callback(context, nil, nil)
        playbackd_pa_context_disconnect(context)
        playbackd_pa_context_unref(context)
        self.context = nil
        routes = SoundServerRoutes()
        listing = []
    }

    private static func watch(_ pointer: UnsafeMutableRawPointer?) -> SoundServerWatch {
        Unmanaged<SoundServerWatch>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private func stateChanged() {
        guard let context else { return }
        switch playbackd_pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            let me = Unmanaged.passUnretained(self).toOpaque()
            let mask = pa_subscription_mask_t(
                PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue)
            release(playbackd_pa_context_subscribe(context, mask, nil, nil))
            release(
                playbackd_pa_context_get_sink_info_list(
                    context, { _, info, end, me in SoundServerWatch.watch(me).listed(info, end: end) }, me))
            release(
                playbackd_pa_context_get_sink_input_info_list(
                    context, { _, info, _, me in SoundServerWatch.watch(me).sinkInput(info) }, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            end(String(cString: playbackd_pa_strerror(playbackd_pa_context_errno(context))))
        default: break
        }
    }

    /// Ends the connection after libpulse's callback has returned.
    private func end(_ reason: String) {
        teardown.arm(after: 0) { [unowned self] in
            disconnect()
            onEnd(reason)
        }
    }

    private func serverEvent(_ type: pa_subscription_event_type_t, _ index: UInt32) {
        guard let context else { return }
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        let me = Unmanaged.passUnretained(self).toOpaque()
        switch (facility, kind) {
        case (PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_REMOVE.rawValue):
            report(routes.remove(sink: index, at: WallClock.now()))
        case (PA_SUBSCRIPTION_EVENT_SINK.rawValue, _):
            release(
                playbackd_pa_context_get_sink_info_by_index(
                    context, index, { _, info, _, me in SoundServerWatch.watch(me).sinkChanged(info) }, me))
        case (PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue, PA_SUBSCRIPTION_EVENT_REMOVE.rawValue): break
        case (PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue, _):
            release(
                playbackd_pa_context_get_sink_input_info(
                    context, index, { _, info, _, me in SoundServerWatch.watch(me).sinkInput(info) }, me))
        default: break
        }
    }

    private func listed(_ info: UnsafePointer<pa_sink_info>?, end: Int32) {
        if let info { listing.append(Self.sink(info.pointee)) }
        guard end != 0 else { return }
        routes.listed(listing)
        listing = []
    }

    private func sinkChanged(_ info: UnsafePointer<pa_sink_info>?) {
        guard let info else { return }
        report(routes.update(Self.sink(info.pointee), at: WallClock.now()))
    }

    /// A stream's details: when it is this process's, the sink it plays on.
    private func sinkInput(_ info: UnsafePointer<pa_sink_input_info>?) {
        guard let info, let value = playbackd_pa_proplist_gets(info.pointee.proplist, "application.process.id"),
            String(cString: value) == processID
        else { return }
        routes.streamPlays(on: info.pointee.sink)
    }

    private func report(_ change: RouteChange?) {
        if let change { onChange(change) }
    }

    private func release(_ operation: OpaquePointer?) {
        if let operation { playbackd_pa_operation_unref(operation) }
    }

    private static func sink(_ info: pa_sink_info) -> SoundServerRoutes.Sink {
        var ports: [SoundServerRoutes.Port] = []
        for index in 0..<Int(info.n_ports) {
            guard let port = info.ports?[index]?.pointee else { continue }
            let availability: SoundServerRoutes.PortAvailability =
                switch Int32(port.available) {
                case Int32(PA_PORT_AVAILABLE_YES.rawValue): .yes
                case Int32(PA_PORT_AVAILABLE_NO.rawValue): .no
                default: .unknown
                }
            ports.append(
                SoundServerRoutes.Port(
                    name: String(cString: port.name), description: port.description.map { String(cString: $0) } ?? "",
                    availability: availability))
        }
        let name = String(cString: info.name)
        return SoundServerRoutes.Sink(
            index: info.index, description: info.description.map { String(cString: $0) } ?? name,
            activePort: info.active_port.map { String(cString: $0.pointee.name) }, ports: ports)
    }
}
