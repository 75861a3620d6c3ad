import Testing

/// Tests that share what only one test at a time may use: the PulseAudio server's streams
/// (counted, killed, unloaded), pacing or wake-ups measured against the wall clock, a
/// container's systemd, the whole machine (the 1,000-client load).
/// They run one at a time, in a phase of their own after everything else (`Scripts/test`).
@Suite(.serialized) struct IntegrationSuite {}

/// Tests whose daemons each have their own socket, state, bus and capture file (a paced one
/// only adds a stream to the null sink): they run alongside each other and the unit tests.
@Suite struct ConcurrentIntegrationSuite {}
