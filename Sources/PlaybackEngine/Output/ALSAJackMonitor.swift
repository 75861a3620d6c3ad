import CALSA
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a sound card's jack controls through ALSA's control interface
/// (`snd_ctl_subscribe_events`): the card tells when headphones are plugged or unplugged, so
/// a direct hardware device has route changes too. The owner polls `fileDescriptors` for
/// input (it sleeps there: no timer, no thread) and calls `readEvents` when they are ready.
/// One thread at a time.
public final class ALSAJackMonitor: JackMonitor {
    public let device: HardwareDevice
    /// What the owner polls for input.
    public private(set) var fileDescriptors: [Int32] = []
    private var ctl: OpaquePointer?
    private var states: JackStates
    private let cardName: String

    /// Opens `device`'s card's controls and reads every jack's state.
    public init(device: HardwareDevice) throws(SinkError) {
        self.device = device
        states = JackStates(pcmDevice: device.device)
        var name: UnsafeMutablePointer<CChar>?
        cardName =
            snd_card_get_name(Int32(device.card), &name) >= 0 && name != nil
            ? String(cString: name!) : "card \(device.card)"
        free(name)
        var handle: OpaquePointer?
        let opened = snd_ctl_open(&handle, "hw:\(device.card)", SND_CTL_NONBLOCK)
        guard opened >= 0, let handle else {
            throw SinkError(function: "snd_ctl_open", code: opened, reason: String(cString: snd_strerror(opened)))
        }
        ctl = handle
        let subscribed = snd_ctl_subscribe_events(handle, 1)
        guard subscribed >= 0 else {
            close()
            throw SinkError(
                function: "snd_ctl_subscribe_events", code: subscribed,
                reason: String(cString: snd_strerror(subscribed)))
        }
        let count = Int(snd_ctl_poll_descriptors_count(handle))
        var descriptors = [pollfd](repeating: pollfd(), count: max(count, 0))
        let filled = Int(snd_ctl_poll_descriptors(handle, &descriptors, UInt32(descriptors.count)))
        fileDescriptors = descriptors.prefix(max(filled, 0)).map(\.fd)
        readInitialStates(handle)
    }

    deinit { close() }

    /// Reads the card's pending events: the route changes they make. When the card is gone
    /// (`-ENODEV`: a USB card unplugged), that is the last change, and the monitor closes.
    public func readEvents() -> [RouteChange] {
        guard let ctl else { return [] }
        var event: OpaquePointer?
        guard snd_ctl_event_malloc(&event) >= 0, let event else { return [] }
        defer { snd_ctl_event_free(event) }
        var changes: [RouteChange] = []
        while true {
            let result = snd_ctl_read(ctl, event)
            if result == -EAGAIN || result == 0 { break }
            if result < 0 {
                close()
                changes.append(RouteChange(reason: .oldDeviceUnavailable, device: cardName, timestamp: WallClock.now()))
                break
            }
            guard snd_ctl_event_get_type(event) == SND_CTL_EVENT_ELEM else { continue }
            let mask = snd_ctl_event_elem_get_mask(event)
            guard mask != SND_CTL_EVENT_MASK_REMOVE, mask & UInt32(SND_CTL_EVENT_MASK_VALUE) != 0 else { continue }
            let name = String(cString: snd_ctl_event_elem_get_name(event))
            guard JackStates.isOutputJack(name, pcmDevice: device.device) else { continue }
            var id: OpaquePointer?
            guard snd_ctl_elem_id_malloc(&id) >= 0, let id else { continue }
            snd_ctl_event_elem_get_id(event, id)
            if let plugged = Self.boolean(ctl, id),
                let change = states.update(name, plugged: plugged, at: WallClock.now())
            {
                changes.append(change)
            }
            snd_ctl_elem_id_free(id)
        }
        return changes
    }

    /// Stops watching.
    public func close() {
        if let ctl { snd_ctl_close(ctl) }
        ctl = nil
        fileDescriptors = []
    }

    private func readInitialStates(_ ctl: OpaquePointer) {
        var list: OpaquePointer?
        guard snd_ctl_elem_list_malloc(&list) >= 0, let list else { return }
        defer {
            snd_ctl_elem_list_free_space(list)
            snd_ctl_elem_list_free(list)
        }
        guard snd_ctl_elem_list(ctl, list) >= 0 else { return }
        let count = snd_ctl_elem_list_get_count(list)
        guard snd_ctl_elem_list_alloc_space(list, count) >= 0, snd_ctl_elem_list(ctl, list) >= 0 else { return }
        var id: OpaquePointer?
        guard snd_ctl_elem_id_malloc(&id) >= 0, let id else { return }
        defer { snd_ctl_elem_id_free(id) }
        for index in 0..<snd_ctl_elem_list_get_used(list) {
            let name = String(cString: snd_ctl_elem_list_get_name(list, index))
            guard JackStates.isOutputJack(name, pcmDevice: device.device) else { continue }
            snd_ctl_elem_list_get_id(list, index, id)
            if let plugged = Self.boolean(ctl, id) { _ = states.update(name, plugged: plugged, at: 0) }
        }
    }

    /// A boolean control's value.
    private static func boolean(_ ctl: OpaquePointer, _ id: OpaquePointer) -> Bool? {
        var value: OpaquePointer?
        guard snd_ctl_elem_value_malloc(&value) >= 0, let value else { return nil }
        defer { snd_ctl_elem_value_free(value) }
        snd_ctl_elem_value_set_id(value, id)
        guard snd_ctl_elem_read(ctl, value) >= 0 else { return nil }
        return snd_ctl_elem_value_get_boolean(value, 0) != 0
    }
}
