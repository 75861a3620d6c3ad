#if canImport(Glibc)
    import Glibc
#endif

/// Seconds since the Unix epoch: the time base of now-playing timestamps, shared by the
/// daemon (which stamps snapshots) and the CLI (which extrapolates from them).
public enum WallClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
