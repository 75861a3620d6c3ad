import Testing

/// The daemon and the CLI over a live socket, against real programs. Each test runs in a
/// world of its own (its own directory, XDG directories, sound server, bus and ports: see
/// `DaemonProcess`), on a thread of its own, side by side with the rest (`TestWorlds`).
@Suite(.worlds) struct IntegrationSuite {}

/// The few tests that measure the machine as much as the daemon: pacing against the wall
/// clock, ticks within milliseconds of a second's boundary, a thousand clients at once.
/// They run one at a time, after everything else (`Scripts/test`), so that no busy neighbour
/// moves their figures.
@Suite(.serialized, .worlds) struct MachineSuite {}
