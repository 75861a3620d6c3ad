import ControlProtocol
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
}
