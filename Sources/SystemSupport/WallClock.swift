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

    /// Seconds on CLOCK_MONOTONIC: for intervals and deadlines, which a change of the wall
    /// clock must not move.
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
