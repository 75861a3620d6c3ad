import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the D-Bus session bus, dispatched by the event loop's sd-event (no
/// thread, no second loop): it sleeps on the bus socket and wakes only when a message arrives
/// or one of its own calls times out. Serves `BusObject`s, owns names, emits signals.
/// Event loop only.
final class BusConnection {
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer?] = []
    private var registrations: [Registration] = []
    private var nameRequests: [NameRequest] = []
    private let disconnectHandler: DisconnectHandler

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`),
    /// and attaches it to `loop`. `onDisconnect` runs, on the loop, when the bus goes away.
    init(loop: EventLoop, description: String, onDisconnect: @escaping () -> Void) throws(BusConnectionError) {
        disconnectHandler = DisconnectHandler(onDisconnect)
        var bus: OpaquePointer?
        let opened = sd_bus_open_user_with_description(&bus, description)
        guard opened >= 0, let bus else { throw BusConnectionError(operation: "connect", code: opened) }
        self.bus = bus
        let attached = sd_bus_attach_event(bus, loop.event, 0)
        guard attached >= 0 else {
            close()
            throw BusConnectionError(operation: "attach to the loop", code: attached)
        }
        var slot: OpaquePointer?
        sd_bus_add_filter(
            bus, &slot,
            { message, userdata, _ in
                if sd_bus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") > 0 {
                    Unmanaged<DisconnectHandler>.fromOpaque(userdata!).takeUnretainedValue().fire()
                }
                return 0
            }, Unmanaged.passUnretained(disconnectHandler).toOpaque())
        slots.append(slot)
    }

    deinit { close() }

    /// Serves `object` at `path` with `interfaces` (plus the standard Properties, Introspectable
    /// and Peer interfaces that sd-bus adds). Register before requesting a name, so that
    /// whoever sees the name appear finds the object.
    func addObject(_ object: BusObject, at path: String, interfaces: [BusInterface]) throws(BusConnectionError) {
        let registration = Registration(object: object, interfaces: interfaces)
        registrations.append(registration)
        for vtable in registration.vtables {
            var slot: OpaquePointer?
            let added = sd_bus_add_object_vtable(
                bus, &slot, path, vtable.interface.name, vtable.table,
                Unmanaged.passUnretained(registration).toOpaque())
            guard added >= 0 else {
                throw BusConnectionError(operation: "register \(vtable.interface.name)", code: added)
            }
            slots.append(slot)
        }
    }

    /// Asks the bus for `name` without queueing for it; `done` learns whether it is ours.
    func requestName(_ name: String, done: @escaping (NameRequestResult) -> Void) {
        let request = NameRequest(done)
        nameRequests.append(request)
        var slot: OpaquePointer?
        let sent = sd_bus_request_name_async(
            bus, &slot, name, 0,
            { reply, userdata, _ in
                let request = Unmanaged<NameRequest>.fromOpaque(userdata!).takeUnretainedValue()
                if let error = sd_bus_message_get_error(reply), sd_bus_error_is_set(error) != 0 {
                    request.done(.failed(error.pointee.message.map { String(cString: $0) } ?? "unknown error"))
                    return 0
                }
                var code: UInt32 = 0
                sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &code)
                // 1: primary owner, 4: already the owner; 3: someone else has it.
                request.done(code == 1 || code == 4 ? .acquired : .taken)
                return 0
            }, Unmanaged.passUnretained(request).toOpaque())
        if sent < 0 { done(.failed(String(cString: strerror(-sent)))) }
        slots.append(slot)
    }

    /// One `PropertiesChanged` for `names` of `interface` at `path`, with their current values.
    func emitPropertiesChanged(at path: String, interface: String, _ names: [String]) {
        guard let bus, !names.isEmpty else { return }
        var cNames: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
        defer { for name in cNames { free(name) } }
        sd_bus_emit_properties_changed_strv(bus, path, interface, &cNames)
    }

    /// Sends the signal `member` of `interface` from `path` with `values`.
    func emitSignal(at path: String, interface: String, _ member: String, _ values: [BusValue]) {
        guard let bus else { return }
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        var writer = BusMessageWriter(message)
        for value in values { writer.append(value) }
        if writer.result >= 0 { sd_bus_send(bus, message, nil) }
    }

    /// Sends what is queued, leaves the bus (its names go with it) and detaches from the loop.
    func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        if let bus {
            sd_bus_detach_event(bus)
            sd_bus_flush_close_unref(bus)
        }
        bus = nil
        registrations = []
        nameRequests = []
    }

    /// The outcome of a name request.
    enum NameRequestResult: Equatable {
        case acquired
        /// Another connection owns it.
        case taken
        case failed(String)
    }
}

/// Why the bus could not be joined.
struct BusConnectionError: Error, CustomStringConvertible {
    let operation: String
    /// A negative errno.
    let code: Int32

    var description: String { "cannot \(operation): \(String(cString: strerror(-code)))" }
}

/// One object's handler and its vtables; the userdata sd-bus passes back to the trampolines.
private final class Registration {
    unowned let object: BusObject
    let vtables: [BusVtable]

    init(object: BusObject, interfaces: [BusInterface]) {
        self.object = object
        vtables = interfaces.map {
            BusVtable($0, method: Registration.method, get: Registration.get, set: Registration.set)
        }
    }

    private static func handler(_ userdata: UnsafeMutableRawPointer?) -> BusObject {
        Unmanaged<Registration>.fromOpaque(userdata!).takeUnretainedValue().object
    }

    static let method: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message else { return -EINVAL }
        handler(userdata).handleCall(BusMethodCall(message))
        return 1
    }

    static let get: sd_bus_property_get_t = { _, _, interface, property, reply, userdata, _ in
        guard let interface, let property, let reply,
            let value = handler(userdata).value(of: String(cString: property), in: String(cString: interface))
        else { return -ENOENT }
        var writer = BusMessageWriter(reply)
        writer.append(value)
        return writer.result
    }

    static let set: sd_bus_property_set_t = { _, _, interface, property, value, userdata, busError in
        guard let interface, let property, let value else { return -EINVAL }
        do throws(BusCallError) {
            try handler(userdata).set(
                String(cString: property), in: String(cString: interface), from: BusMessageReader(value))
            return 1
        } catch {
            return error.set(busError)
        }
    }
}

private final class NameRequest {
    let done: (BusConnection.NameRequestResult) -> Void
    init(_ done: @escaping (BusConnection.NameRequestResult) -> Void) { self.done = done }
}

private final class DisconnectHandler {
    private let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    func fire() { action() }
}
