import Testing

/// Every test that starts a daemon runs inside this suite, one at a time: the real-time tests
/// measure wall-clock pacing and must not compete with each other for the two cores.
@Suite(.serialized)
struct IntegrationSuite {}
