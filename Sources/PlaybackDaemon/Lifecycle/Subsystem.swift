import PlaybackModel

/// A part of the running daemon with a place in its start and stop order: the shape of
/// swift-service-lifecycle's `Service`, on the control loop. `Daemon.subsystems` is the one
/// ordered list; a new subsystem (the D-Bus front end, a route watcher) is one entry there.
/// Every hook runs on the control loop; each has a default that does nothing.
protocol Subsystem: AnyObject {
    /// Starts it, in list order, before `READY=1`. An error ends start-up.
    func start() throws(SubsystemError)
    /// After `READY=1`, in list order, with the snapshot the daemon starts with.
    func ready(_ snapshot: NowPlaying)
    /// A published change and the fresh snapshot, in list order.
    func publish(_ snapshot: NowPlaying, changes: ChangeSet)
    /// The reloaded settings (SIGHUP), in list order, after the service applied them.
    func reload(_ settings: DaemonSettings)
    /// SIGTERM or the idle exit: take no new work. In reverse order, before the fade.
    func beginStopping()
    /// The loop has ended: save, release, close. In reverse order.
    func stop()
}

extension Subsystem {
    func start() throws(SubsystemError) {}
    func ready(_ snapshot: NowPlaying) {}
    func publish(_ snapshot: NowPlaying, changes: ChangeSet) {}
    func reload(_ settings: DaemonSettings) {}
    func beginStopping() {}
    func stop() {}
}

/// Why a subsystem could not start.
struct SubsystemError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
