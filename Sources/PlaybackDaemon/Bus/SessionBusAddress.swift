import PlaybackModel
import SystemSupport

/// Where the session bus's socket is, as sd-bus looks for it: the first `unix:path=` address
/// of `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`. Nil for an abstract or other
/// non-path address, or when neither is set.
enum SessionBusAddress {
    static func socketPath(environment: Environment) -> String? {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"] else {
            return environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
        }
        for entry in address.split(separator: ";") where entry.hasPrefix(bytes: "unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") where pair.hasPrefix(bytes: "path=") {
                return FileURL.percentDecoded(pair.dropFirst(5))  // values escape bytes as %XX
            }
        }
        return nil
    }
}
