import ControlProtocol
import SystemSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SocketPathTests {
    @Test("flag, then PLAYBACKD_SOCKET, then XDG_RUNTIME_DIR, then /tmp")
    func precedence() {
        let env: Environment = ["PLAYBACKD_SOCKET": "/e.sock", "XDG_RUNTIME_DIR": "/run/user/1"]
        #expect(SocketPath.resolve(explicit: "/f.sock", environment: env) == "/f.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: env) == "/e.sock")
        #expect(
            SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"])
                == "/run/user/1/playbackd/control.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: [:]) == "/tmp/playbackd-\(getuid())/control.sock")
    }

    @Test("one rule for every XDG directory: a relative variable is ignored, as the specification says")
    func relativeXDGVariablesAreIgnored() {
        let relative: Environment = ["XDG_RUNTIME_DIR": "run", "XDG_STATE_HOME": "state", "HOME": "/h"]
        #expect(SocketPath.resolve(explicit: nil, environment: relative) == "/tmp/playbackd-\(getuid())/control.sock")
        #expect(XDGDirectories.runtime(environment: relative) == "/tmp/playbackd-\(getuid())")
        #expect(XDGDirectories.state(environment: relative) == "/h/.local/state/playbackd")
        #expect(XDGDirectories.state(environment: ["XDG_STATE_HOME": "/s"]) == "/s/playbackd")
        #expect(XDGDirectories.config(environment: ["XDG_CONFIG_HOME": "c"]) == nil)
    }

    @Test("a NOTIFY_SOCKET address: a path, or @name in the abstract namespace that exactly that name reaches")
    func notifySocketAddresses() throws {
        #expect(UnixSocketAddress(notifySocket: "relative") == nil)
        #expect(UnixSocketAddress(notifySocket: "@" + String(repeating: "x", count: 200)) == nil)
        let name = "@playbackd-test-\(getpid())"
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(receiver); close(sender) }
        let address = try #require(UnixSocketAddress(notifySocket: name))
        #expect(address.bind(receiver) == 0)
        let sent = address.withSockaddr { sendto(sender, "READY=1", 7, 0, $0, $1) }
        #expect(sent == 7)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count == 7 && String(decoding: buffer[..<7], as: UTF8.self) == "READY=1")
    }
}
