import ControlClient
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `scrobble-login lastfm`, after the address is printed: asks the daemon every few seconds
/// whether the user allowed playbackd, until it is or `limit` seconds pass.
struct ScrobbleLoginWait {
    static let interval: UInt32 = 3
    static let limit = 600

    let client: ControlClient
    let service: String
    let token: String

    func follow() throws(ClientError) -> Int32 {
        Console.out("waiting (at most \(Self.limit / 60) minutes)...\n")
        var waited = 0
        while waited < Self.limit {
            sleep(Self.interval)
            waited += Int(Self.interval)
            let reply = try client.request(
                .object([
                    ("command", .string(CommandName.scrobbleLogin.rawValue)), ("service", .string(service)),
                    ("token", .string(token)),
                ]))
            guard reply.isSuccess else {
                Console.error("playbackctl: \(reply["message"]?.stringValue ?? "the authorisation failed")\n")
                return CommandStatus.commandFailed.exitCode
            }
            if reply["authorised"]?.boolValue == true {
                Console.out("authorised: \(service) will take the listens\n")
                return ExitCode.success
            }
        }
        Console.error("playbackctl: not allowed within \(Self.limit / 60) minutes; run scrobble-login again\n")
        return CommandStatus.commandFailed.exitCode
    }
}
