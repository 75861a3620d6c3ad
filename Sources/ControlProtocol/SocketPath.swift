#if canImport(Glibc)
    import Glibc
#endif

/// Where the control socket lives, found the same way by the daemon and the CLI:
/// `--socket PATH`, else `$PLAYBACKD_SOCKET`, else `$XDG_RUNTIME_DIR/playbackd/control.sock`,
/// else `/tmp/playbackd-$UID/control.sock`.
public enum SocketPath {
    public static func resolve(explicit: String?, environment: Environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["PLAYBACKD_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/playbackd/control.sock"
        }
        return "/tmp/playbackd-\(getuid())/control.sock"
    }
}
