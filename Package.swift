// swift-tools-version: 6.0
import PackageDescription

/// `Scripts/test --sanitize thread|address` sets this: a sanitizer's runtime cannot be linked
/// into a static executable or beside a static Swift runtime, so that build links dynamically.
let sanitizing = Context.environment["PLAYBACKD_SANITIZE"] != nil

/// playbackd: a headless audio playback daemon (`playbackd`) and its control CLI (`playbackctl`).
///
/// Dependencies point one way: executables -> daemon -> engine -> model;
/// ctl -> cli -> client -> protocol -> model; everything may use SystemSupport (threads,
/// eventfds, the console, the environment, clocks, XDG directories). The ctl never links the
/// engine or any audio library.
let package = Package(
    name: "playbackd",
    products: [
        .executable(name: "playbackd", targets: ["playbackd"]),
        .executable(name: "playbackctl", targets: ["playbackctl"]),
    ],
    targets: [
        .systemLibrary(
            name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CMPG123", path: "Sources/CMPG123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // Sonic has no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CSonic", path: "Sources/CSonic", providers: [.apt(["libsonic-dev"])]),
        // One small C shim per library: what Swift cannot call (variadic handlers, GNU calls).
        .target(name: "CALSAShim", dependencies: ["CALSA"]),
        .target(name: "CSystemShim"),
        .target(name: "CBusShim", dependencies: ["CSystemd"]),
        // libpulse's headers only (libpulse-dev): the library is loaded when it is needed.
        .target(name: "CPulseShim", dependencies: ["CSystemd"]),
        // The sound chain's vector loops, compiled for two targets and chosen at start-up.
        .target(name: "CSoundKernel"),

        .target(name: "SystemSupport", dependencies: ["CSystemShim"]),
        .target(name: "PlaybackModel"),
        .target(name: "ControlProtocol", dependencies: ["PlaybackModel", "SystemSupport"]),
        .target(name: "ControlClient", dependencies: ["ControlProtocol", "SystemSupport", "CSystemShim"]),
        .target(
            name: "PlaybackEngine",
            dependencies: [
                "PlaybackModel", "SystemSupport", "CALSA", "CMPG123", "CALSAShim", "CSonic", "CPulseShim",
                "CSoundKernel",
            ]),
        .target(
            name: "PlaybackDaemon",
            dependencies: [
                "PlaybackEngine", "ControlProtocol", "PlaybackModel", "SystemSupport", "CSystemd", "CSystemShim",
                "CBusShim", "CPulseShim",
            ]),
        // The Swift runtime linked in (`-static-stdlib`): the installed daemon must run where no
        // toolchain is (a user manager's sandbox, another machine); only libc and the C libraries
        // (libasound, libmpg123, libsystemd, libsonic) stay shared (docs/systemd.md); libpulse is
        // loaded when a sound server is watched.
        .executableTarget(
            name: "playbackd",
            dependencies: ["PlaybackDaemon", "PlaybackEngine", "PlaybackModel", "ControlProtocol", "SystemSupport"],
            linkerSettings: sanitizing ? [] : [.unsafeFlags(["-static-stdlib"])]),
        .target(
            name: "ControlCLI", dependencies: ["ControlClient", "ControlProtocol", "PlaybackModel", "SystemSupport"]),
        // Fully static: it runs on every media-key press, and static linking cuts its start-up
        // from about 3 ms to about 1 ms (docs/performance.md). It links no C audio library.
        .executableTarget(
            name: "playbackctl", dependencies: ["ControlCLI"],
            linkerSettings: sanitizing ? [] : [.unsafeFlags(["-static-executable"])]),
        // The parsers of untrusted input as libFuzzer targets (Scripts/fuzz); a normal build
        // replays inputs through them (the suite runs the seed corpus and every crash found).
        .executableTarget(
            name: "playbackd-fuzz",
            dependencies: ["PlaybackDaemon", "PlaybackEngine", "ControlProtocol", "PlaybackModel", "SystemSupport"]),
        .executableTarget(
            name: "playbackd-bench",
            dependencies: [
                "ControlClient", "ControlProtocol", "PlaybackDaemon", "PlaybackEngine", "PlaybackModel",
                "SystemSupport", "CSystemd",
            ]),

        // Measurements of captured audio, shared by the engine's and the daemon's tests.
        .target(name: "AudioAnalysis", path: "Tests/AudioAnalysis"),
        // Shared by the tests that keep generated blocks of docs/ current.
        .target(name: "DocumentationSupport", dependencies: ["ControlProtocol"], path: "Tests/DocumentationSupport"),
        .testTarget(name: "PlaybackModelTests", dependencies: ["PlaybackModel"]),
        .testTarget(
            name: "ControlProtocolTests", dependencies: ["ControlProtocol", "SystemSupport", "DocumentationSupport"]),
        .testTarget(
            name: "PlaybackEngineTests",
            dependencies: ["PlaybackEngine", "PlaybackModel", "AudioAnalysis", "CSoundKernel"]),
        .testTarget(name: "ControlCLITests", dependencies: ["ControlCLI", "DocumentationSupport"]),
        .testTarget(
            name: "PlaybackDaemonTests",
            dependencies: [
                "PlaybackDaemon", "PlaybackEngine", "PlaybackModel", "ControlProtocol", "DocumentationSupport",
            ]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "ControlClient", "ControlProtocol", "PlaybackModel", "PlaybackEngine", "SystemSupport", "AudioAnalysis",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
