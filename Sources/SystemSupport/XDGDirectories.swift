#if canImport(Glibc)
    import Glibc
#endif

/// The XDG base directories playbackd uses, resolved by one set of rules for the daemon and
/// the CLI: a variable counts only when it holds an absolute path (the XDG Base Directory
/// specification: relative paths are invalid and are ignored), else the fallback applies.
public enum XDGDirectories {
    /// `$XDG_RUNTIME_DIR/playbackd`, else `/tmp/playbackd-$UID` (per user, never shared).
    public static func runtime(environment: Environment) -> String {
        absolute(environment["XDG_RUNTIME_DIR"]).map { $0 + "/playbackd" } ?? "/tmp/playbackd-\(getuid())"
    }

    /// `$XDG_STATE_HOME/playbackd`, else `$HOME/.local/state/playbackd`; nil without either.
    public static func state(environment: Environment) -> String? {
        if let state = absolute(environment["XDG_STATE_HOME"]) { return state + "/playbackd" }
        return absolute(environment["HOME"]).map { $0 + "/.local/state/playbackd" }
    }

    /// `$XDG_CONFIG_HOME/playbackd`, else `$HOME/.config/playbackd`; nil without either.
    public static func config(environment: Environment) -> String? {
        if let config = absolute(environment["XDG_CONFIG_HOME"]) { return config + "/playbackd" }
        return absolute(environment["HOME"]).map { $0 + "/.config/playbackd" }
    }

    /// `$XDG_CACHE_HOME/playbackd`, else `$HOME/.cache/playbackd`; nil without either.
    public static func cache(environment: Environment) -> String? {
        if let cache = absolute(environment["XDG_CACHE_HOME"]) { return cache + "/playbackd" }
        return absolute(environment["HOME"]).map { $0 + "/.cache/playbackd" }
    }

    /// The first directory of a list systemd sets for a unit (`STATE_DIRECTORY`,
    /// `CACHE_DIRECTORY`: colon-separated); nil when it is not set.
    public static func systemd(_ variable: String, environment: Environment) -> String? {
        guard let first = environment[variable]?.split(separator: ":").first, !first.isEmpty else { return nil }
        return String(first)
    }

    private static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix(bytes: "/") else { return nil }
        return path
    }
}
