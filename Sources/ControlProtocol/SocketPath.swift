import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where the control socket lives, found the same way by the daemon and the CLI:
/// `--socket PATH`, else `$PLAYBACKD_SOCKET`, else `$XDG_RUNTIME_DIR/playbackd/control.sock`,
/// else `/tmp/playbackd-$UID/control.sock` (`XDGDirectories.runtime`: a relative
/// `$XDG_RUNTIME_DIR` is ignored, as the XDG specification says).
public enum SocketPath {
    public static func resolve(explicit: String?, environment: Environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["PLAYBACKD_SOCKET"], !path.isEmpty { return path }
        return XDGDirectories.runtime(environment: environment) + "/control.sock"
    }
}
