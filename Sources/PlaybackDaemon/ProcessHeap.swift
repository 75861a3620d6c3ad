import CSystemShim

/// The process's heap for a daemon that runs for months: memory a burst of work used (a
/// library scan of 100,000 files, a large enqueue) goes back to the system when the work ends.
public enum ProcessHeap {
    /// Fixes malloc's thresholds for returning memory (glibc otherwise raises them after each
    /// large block freed, up to 64 MiB). Main thread, before any other thread starts.
    public static func prepare() { playbackd_fix_heap_thresholds() }

    /// Gives free heap memory back to the system, in every thread's arena (after a scan).
    static func releaseFree() { playbackd_release_free_heap() }
}
