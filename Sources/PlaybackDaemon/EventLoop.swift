import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's event loop, on its one event loop: libsystemd's sd-event, with descriptors
/// and their handlers, and one-shot timers. It sleeps in `epoll_wait` with no timeout while nothing is armed, so an
/// idle daemon has no wake-ups at all. Everything that touches the now-playing state runs
/// here. sd-event keeps each registration as its own source object, so a descriptor closed and
/// reused within one iteration never receives the old one's readiness, and other libraries
/// (sd-bus, through `sd_bus_attach_event`) can join the same loop. Event loop only.
final class EventLoop {
    /// The sd-event loop; owned by this object, used on the event loop only.
    let event: OpaquePointer
    private var watches: [Int32: IOWatch] = [:]

    init() {
        var event: OpaquePointer?
        precondition(sd_event_new(&event) >= 0 && event != nil, "sd_event_new failed")
        self.event = event!
    }

    deinit {
        for watch in watches.values { watch.remove() }
        sd_event_unref(event)
    }

    /// Calls `handler` with the returned events (`POLLIN`, `POLLOUT`, `POLLHUP`, `POLLERR`,
    /// which have the same values in epoll) whenever `fd` is ready for `events`.
    func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), handler: @escaping (Int16) -> Void) {
        watches.removeValue(forKey: fd)?.remove()
        watches[fd] = IOWatch(event: event, fd: fd, events: events, handler: handler)
    }

    /// Changes which events `fd` is watched for.
    func setEvents(_ fd: Int32, _ events: Int16) {
        watches[fd]?.setEvents(events)
    }

    func unwatch(_ fd: Int32) {
        watches.removeValue(forKey: fd)?.remove()
    }

    /// Ends `run` after the handler that calls it returns.
    func stop() { sd_event_exit(event, 0) }

    /// Runs until `stop()`.
    func run() {
        let result = sd_event_loop(event)
        precondition(result >= 0, "sd_event_loop failed: \(String(cString: strerror(-result)))")
    }
}

/// One descriptor's registration: its sd-event source and handler.
private final class IOWatch {
    private var source: OpaquePointer?
    let handler: (Int16) -> Void

    init(event: OpaquePointer, fd: Int32, events: Int16, handler: @escaping (Int16) -> Void) {
        self.handler = handler
        let result = sd_event_add_io(
            event, &source, fd, UInt32(UInt16(bitPattern: events)),
            { _, _, revents, userdata in
                Unmanaged<IOWatch>.fromOpaque(userdata!).takeUnretainedValue().handler(
                    Int16(truncatingIfNeeded: revents))
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        // -ESTALE: the loop has finished, and nothing will be dispatched any more.
        precondition(
            result >= 0 || result == -ESTALE, "sd_event_add_io(\(fd)) failed: \(String(cString: strerror(-result)))")
    }

    func setEvents(_ events: Int16) { sd_event_source_set_io_events(source, UInt32(UInt16(bitPattern: events))) }

    /// Stops watching; the source goes with its last reference.
    func remove() {
        source = sd_event_source_disable_unref(source)
    }
}

/// A one-shot timer on the event loop's CLOCK_MONOTONIC, dispatched by sd-event.
final class OneShotTimer {
    private let event: OpaquePointer
    private var source: OpaquePointer?
    /// How late sd-event may fire it, in microseconds, so that timers coalesce.
    private let accuracy: UInt64
    private var action: (() -> Void)?

    /// `accuracy` is how late the timer may fire (seconds); timers that only need to happen
    /// eventually take a coarse one so their wake-ups coalesce with others'.
    init(loop: EventLoop, accuracy: Double = 0.000_001) {
        event = loop.event
        self.accuracy = max(1, UInt64(accuracy * 1_000_000))
    }

    deinit { sd_event_source_disable_unref(source) }

    /// Runs `action` once after `seconds`, replacing any earlier arming.
    func arm(after seconds: Double, _ action: @escaping () -> Void) {
        self.action = action
        let microseconds = UInt64(max(seconds, 0.000_001) * 1_000_000)
        if let source {
            sd_event_source_set_time_relative(source, microseconds)
            sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
            return
        }
        let result = sd_event_add_time_relative(
            event, &source, CLOCK_MONOTONIC, microseconds, accuracy,
            { _, _, userdata in
                Unmanaged<OneShotTimer>.fromOpaque(userdata!).takeUnretainedValue().fire()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        // After the loop has finished (the stop phase saves and closes), nothing would dispatch
        // the timer: sd-event refuses it (-ESTALE) and it never fires, as intended.
        precondition(
            result >= 0 || result == -ESTALE, "sd_event_add_time_relative failed: \(String(cString: strerror(-result)))"
        )
    }

    func cancel() {
        action = nil
        if let source { sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF)) }
    }

    var isArmed: Bool { action != nil }

    private func fire() {
        let action = self.action
        self.action = nil
        action?()
    }
}
