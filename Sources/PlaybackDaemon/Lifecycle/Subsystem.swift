import PlaybackModel

/// A part of the running daemon with a place in its start and stop order: the shape of
/// swift-service-lifecycle's `Service`, on the event loop. `Daemon.subsystems` is the one
/// ordered list; a new subsystem is one entry there. A subsystem receives the player's
/// published `PlayerView` with each step's changes and events, and sends commands; it never
/// reads back into the service.
/// Every hook runs on the event loop; each has a default that does nothing.
protocol Subsystem: AnyObject {
    /// Starts it, in list order, before `READY=1`. An error ends start-up.
    func start() throws(SubsystemError)
    /// Once every subsystem has started, in list order, with the view the daemon starts with.
    func ready(_ view: PlayerView)
    /// A step's changes and events, and the view after them, in list order.
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent])
    /// The reloaded settings (SIGHUP), in list order, after the service applied them.
    func reload(_ settings: DaemonSettings)
    /// SIGTERM or the idle exit: take no new work. In reverse order, before the fade.
    func beginStopping()
    /// The loop has ended, on the view `last` (the position heard after the fade): save,
    /// release, close. In reverse order.
    func stop(_ last: PlayerView)
}

extension Subsystem {
    func start() throws(SubsystemError) {}
    func ready(_ view: PlayerView) {}
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {}
    func reload(_ settings: DaemonSettings) {}
    func beginStopping() {}
    func stop(_ last: PlayerView) {}
}

/// Why a subsystem could not start.
struct SubsystemError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
