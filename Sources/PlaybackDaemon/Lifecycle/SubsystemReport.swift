import PlaybackModel

/// What a subsystem tells the player besides commands: something it saw happen outside the
/// player. The service receives each into a step (`PlayerService.receive`), whose changes and events
/// go out through the one `publish` to every subsystem alike, so no subsystem is wired to
/// another.
enum SubsystemReport {
    /// A watcher saw the audio route change.
    case routeChanged(RouteChange)
    /// The library's contents or its scan's progress changed.
    case libraryChanged
    /// A client connected to the control socket, or went: `count` are connected.
    case clientsConnected(Int)
}
