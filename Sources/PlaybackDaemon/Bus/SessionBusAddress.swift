import SystemSupport

/// Where the session bus's socket is, as sd-bus looks for it: the first `unix:path=` address
/// of `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`. Nil for an abstract or other
/// non-path address, or when neither is set.
enum SessionBusAddress {
    static func socketPath(environment: Environment) -> String? {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"] else {
            return environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
        }
        for entry in address.split(separator: ";") where entry.hasPrefix("unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") where pair.hasPrefix("path=") {
                return unescape(pair.dropFirst(5))
            }
        }
        return nil
    }

    /// D-Bus address values escape bytes as `%XX`.
    private static func unescape(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
