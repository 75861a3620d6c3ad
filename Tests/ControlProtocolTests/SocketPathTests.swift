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
}
