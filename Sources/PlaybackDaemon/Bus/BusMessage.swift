import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// Appends values to an sd-bus message. The first failure is kept in `result` (a negative
/// errno), and later appends do nothing; callers check it once at the end.
struct BusMessageWriter {
    let message: OpaquePointer
    private(set) var result: Int32 = 0

    init(_ message: OpaquePointer) { self.message = message }

    mutating func append(_ value: BusValue) {
        guard result >= 0 else { return }
        switch value {
        case .string(let text): appendText(CChar(UInt8(ascii: "s")), text)
        case .objectPath(let path): appendText(CChar(UInt8(ascii: "o")), path)
        case .boolean(let flag):
            var number: Int32 = flag ? 1 : 0
            check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &number))
        case .int32(var number): check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &number))
        case .int64(var number): check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &number))
        case .double(var number): check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &number))
        case .strings(let texts):
            container("a", "s") { writer in
                for text in texts { writer.append(.string(text)) }
            }
        case .dictionary(let entries):
            container("a", "{sv}") { writer in
                for entry in entries {
                    writer.container("e", "sv") { writer in
                        writer.append(.string(entry.key))
                        writer.container("v", entry.value.signature) { $0.append(entry.value) }
                    }
                }
            }
        }
    }

    /// Appends a container of `type` (`a`, `e`, `v`, `r`) holding `contents`, filled by `body`.
    mutating func container(_ type: Character, _ contents: String, _ body: (inout BusMessageWriter) -> Void) {
        guard result >= 0 else { return }
        check(sd_bus_message_open_container(message, CChar(type.asciiValue!), contents))
        guard result >= 0 else { return }
        body(&self)
        guard result >= 0 else { return }
        check(sd_bus_message_close_container(message))
    }

    private mutating func appendText(_ type: CChar, _ text: String) {
        text.withCString { check(sd_bus_message_append_basic(message, type, $0)) }
    }

    private mutating func check(_ code: Int32) {
        if code < 0 && result >= 0 { result = code }
    }
}

/// Reads the arguments of a method call or the value of a property write, in order.
struct BusMessageReader {
    let message: OpaquePointer

    init(_ message: OpaquePointer) { self.message = message }

    /// Reads a string (`s`) or object path (`o`).
    func text(_ type: Character = "s") throws(BusCallError) -> String {
        var pointer: UnsafePointer<CChar>?
        let code = sd_bus_message_read_basic(message, CChar(type.asciiValue!), &pointer)
        guard code > 0, let pointer else { throw BusCallError.invalidArguments("expected a \(type) argument") }
        return String(cString: pointer)
    }

    func int64() throws(BusCallError) -> Int64 { try basic("x", Int64(0)) }
    func double() throws(BusCallError) -> Double { try basic("d", 0.0) }
    func boolean() throws(BusCallError) -> Bool { try basic("b", Int32(0)) != 0 }

    private func basic<Value: BitwiseCopyable>(_ type: Character, _ initial: Value) throws(BusCallError) -> Value {
        var value = initial
        guard sd_bus_message_read_basic(message, CChar(type.asciiValue!), &value) > 0 else {
            throw BusCallError.invalidArguments("expected a \(type) argument")
        }
        return value
    }
}

/// A method call or property write that failed: the D-Bus error it is answered with.
struct BusCallError: Error, Equatable {
    /// A D-Bus error name (`org.freedesktop.DBus.Error.InvalidArgs`).
    let name: String
    let message: String

    init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    static func invalidArguments(_ message: String) -> BusCallError {
        BusCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// Sets `error` for sd-bus and returns what a handler returns.
    func set(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(error, name, message)
    }
}
