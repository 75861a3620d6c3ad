import CSystemd

/// What serves an object's interfaces on a `BusConnection`: a front end implements it, and the
/// connection dispatches every call, property read and property write on the object to it.
/// Everything runs on the event loop.
protocol BusObject: AnyObject {
    /// A method call. Reply through `call` (at once, or later: the call stays valid).
    func handleCall(_ call: BusMethodCall)
    /// A property's current value; nil when the object has no such property.
    func value(of property: String, in interface: String) -> BusValue?
    /// A property write, with the value's reader positioned at the new value.
    func set(_ property: String, in interface: String, from reader: BusMessageReader) throws(BusCallError)
}

/// A method call that is answered once, now or later.
final class BusMethodCall {
    let interface: String
    let member: String
    let arguments: BusMessageReader
    private var message: OpaquePointer?

    init(_ message: OpaquePointer) {
        self.message = sd_bus_message_ref(message)
        interface = sd_bus_message_get_interface(message).map { String(cString: $0) } ?? ""
        member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        arguments = BusMessageReader(message)
    }

    deinit { sd_bus_message_unref(message) }

    /// Answers with `values` as the method's output, or with the error. A second answer is
    /// ignored; an answer to a connection that has closed is dropped.
    func reply(_ result: Result<[BusValue], BusCallError>) {
        guard let message else { return }
        defer { self.message = sd_bus_message_unref(message) }
        switch result {
        case .success(let values):
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return }
            defer { sd_bus_message_unref(reply) }
            var writer = BusMessageWriter(reply)
            for value in values { writer.append(value) }
            if writer.result >= 0 { sd_bus_send(nil, reply, nil) }
        case .failure(let failure):
            var error = sd_bus_error()
            sd_bus_error_set(&error, failure.name, failure.message)
            sd_bus_reply_method_error(message, &error)
            sd_bus_error_free(&error)
        }
    }
}
