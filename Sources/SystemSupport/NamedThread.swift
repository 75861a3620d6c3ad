import CSystemShim

#if canImport(Glibc)
    import Glibc
#endif

/// A joinable, named pthread running one closure: the engine's decoder and output threads
/// (plain pthreads, so the output thread can ask for `SCHED_FIFO`) and the daemon's workers.
public struct NamedThread {
    private let thread: pthread_t

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes). Traps when the system
    /// refuses a thread: for threads the program cannot run without.
    public init(name: String, body: @escaping @Sendable () -> Void) {
        guard let started = Self.start(name: name, body: body) else { preconditionFailure("pthread_create failed") }
        self = started
    }

    private init(thread: pthread_t) { self.thread = thread }

    /// Starts `body` on a new thread named `name`, or returns nil when the system refuses one
    /// (a task limit): for threads that only speed things up.
    public static func start(name: String, body: @escaping @Sendable () -> Void) -> NamedThread? {
        var handle = pthread_t()
        let context = Unmanaged.passRetained(Body(name, body))
        let result = pthread_create(
            &handle, nil,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                playbackd_name_this_thread(body.name)
                body.run()
                return nil
            }, context.toOpaque())
        guard result == 0 else {
            context.release()
            return nil
        }
        return NamedThread(thread: handle)
    }

    /// Makes the calling thread background work: `SCHED_BATCH` at nice `niceness` (Linux sets
    /// the nice value per thread), so that it yields to the event loop, to the clients asking
    /// it and to the rest of the system. Returns false when either part was refused.
    @discardableResult
    public static func makeCurrentBackground(niceness: Int32) -> Bool {
        playbackd_make_this_thread_background(niceness) == 0
    }

    /// Makes the calling thread idle work: `SCHED_IDLE` and the idle I/O class, so that it
    /// runs and reads only when nothing else wants the CPU or the disk. Returns false when
    /// either part was refused.
    @discardableResult
    public static func makeCurrentIdle() -> Bool {
        playbackd_make_this_thread_idle() == 0
    }

    /// Asks for real-time FIFO scheduling; returns false when the system refuses.
    public func requestRealtime(priority: Int32) -> Bool {
        var param = sched_param(sched_priority: priority)
        return pthread_setschedparam(thread, SCHED_FIFO, &param) == 0
    }

    public func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end by itself, unjoined (its resources go when it returns).
    public func detach() {
        pthread_detach(thread)
    }
}
