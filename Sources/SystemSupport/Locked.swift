#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a POSIX mutex; `withLock` gives one thread at a time access to it.
///
/// Used instead of the standard library's `Mutex`: on Linux that one waits on a futex inside
/// the Swift runtime, which ThreadSanitizer does not see, so under `Scripts/test --sanitize
/// thread` every access it guards was reported as a race. ThreadSanitizer knows
/// `pthread_mutex_lock`. Not for the output thread, which takes no lock at all.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock. `body` must not call back into this lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
