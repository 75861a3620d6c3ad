// swift-tools-version: 6.0
import PackageDescription

/// `Scripts/test --sanitize thread|address` sets this: a sanitizer's runtime cannot be linked
/// into a static executable or beside a static Swift runtime, so that build links dynamically.
let sanitizing = Context.environment["PLAYBACKD_SANITIZE"] != nil

/// Every module the two programs are built from: one section per function, so that the linker
/// can place the functions that run together (below), and no implicit `_StringProcessing`
/// (regular expressions and their string algorithms, which nothing here uses: linked in, its
/// metadata would stay resident). A generic type's metadata is reached through its accessor,
/// not by demangling its name at first use, which costs every start instructions.
let leanSwift: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-function-sections", "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
    ])
]
let leanC: [CSetting] = [.unsafeFlags(["-ffunction-sections"])]

/// How each program is linked (docs/performance.md, "Memory"): by the toolchain's lld, with the
/// functions that run listed first (`Scripts/order-functions` records them in
/// `Sources/PROGRAM/link/hot-functions.txt`), so that the pages the kernel maps around each one
/// touched hold code that runs rather than code that never does; and with packed relative
/// relocations (3 KiB instead of 500 KiB read at every start), without exporting the
/// program's own symbols (the toolchain asks for `-export-dynamic`; nothing looks them up), and
/// with functions whose machine code is identical kept once (`--icf=all`: 4% of the daemon's
/// text; nothing here compares two functions' addresses, and a backtrace may name either).
/// A function missing from the list (new or renamed) is only placed among the rest. Every
/// imported function is bound at start (`-z now`, which also makes the GOT read-only): a first
/// call later would look its name up in every library's symbol tables, mapping their pages
/// again after `ResidentCode` released them. The same directory is searched for libraries first: the daemon's holds a
/// script that makes `-lstdc++` the static archive.
func orderedLink(_ program: String) -> [LinkerSetting] {
    let directory = Context.packageDirectory + "/Sources/\(program)/link"
    return [
        .unsafeFlags([
            "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(directory)/hot-functions.txt",
            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--no-export-dynamic", "-Xlinker", "--icf=all", "-Xlinker", "-z", "-Xlinker", "now",
            "-L\(directory)",
        ])
    ]
}

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
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Sonic has no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CSonic", path: "Sources/CSonic", providers: [.apt(["libsonic-dev"])]),
        // One small C shim per library: what Swift cannot call (variadic handlers, GNU calls).
        .target(name: "CALSAShim", dependencies: ["CALSA"], cSettings: leanC),
        .target(name: "CSystemShim", cSettings: leanC),
        .target(name: "CBusShim", dependencies: ["CSystemd"], cSettings: leanC),
        // libpcre2-8 (libpcre2-dev) for the library's regular expressions (`regexp()`).
        .target(
            name: "CSQLiteShim", dependencies: ["CSQLite"], cSettings: leanC,
            linkerSettings: [.linkedLibrary("pcre2-8")]),
        // libpulse's headers only (libpulse-dev): the library is loaded when it is needed.
        .target(name: "CPulseShim", dependencies: ["CSystemd"], cSettings: leanC),
        // libFLAC, libvorbisfile and libopusfile are loaded when a file of their format is opened.
        // (Their headers: libflac-dev, libvorbis-dev, libopusfile-dev; libebur128-dev for loudness.)
        .target(name: "CDecoderLibraries", cSettings: leanC),
        // The sound chain's vector loops, compiled for two targets and chosen at start-up.
        .target(name: "CSoundKernel", cSettings: leanC),

        .target(name: "SystemSupport", dependencies: ["CSystemShim"], swiftSettings: leanSwift),
        .target(name: "PlaybackModel", swiftSettings: leanSwift),
        .target(name: "ControlProtocol", dependencies: ["PlaybackModel", "SystemSupport"], swiftSettings: leanSwift),
        .target(
            name: "ControlClient", dependencies: ["ControlProtocol", "SystemSupport", "CSystemShim"],
            swiftSettings: leanSwift),
        .target(
            name: "PlaybackEngine",
            dependencies: [
                "PlaybackModel", "SystemSupport", "CALSA", "CMPG123", "CDecoderLibraries", "CALSAShim", "CSonic",
                "CPulseShim",
                "CSoundKernel",
            ], swiftSettings: leanSwift),
        .target(
            name: "PlaybackDaemon",
            dependencies: [
                "PlaybackEngine", "ControlProtocol", "PlaybackModel", "SystemSupport", "CSystemd", "CSystemShim",
                "CBusShim", "CPulseShim", "CSQLite", "CSQLiteShim", "CDecoderLibraries",
            ], swiftSettings: leanSwift),
        // The Swift runtime linked in (`-static-stdlib`): the installed daemon must run where no
        // toolchain is (a user manager's sandbox, another machine); only libc and the C libraries
        // (libasound, the decoders' libraries, libsystemd, libsonic) stay shared (docs/systemd.md); libpulse is
        // loaded when a sound server is watched. The unwinder the runtime calls is linked in too
        // (`-static-libgcc`): no other library of the process needs libgcc_s.
        .executableTarget(
            name: "playbackd",
            dependencies: ["PlaybackDaemon", "PlaybackEngine", "PlaybackModel", "ControlProtocol", "SystemSupport"],
            exclude: ["link"], swiftSettings: leanSwift,
            linkerSettings: sanitizing
                ? []
                : [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-static-libgcc"])] + orderedLink("playbackd")),
        .target(
            name: "ControlCLI", dependencies: ["ControlClient", "ControlProtocol", "PlaybackModel", "SystemSupport"],
            swiftSettings: leanSwift),
        // Fully static: it runs on every media-key press, and static linking cuts its start-up
        // from about 3 ms to about 1 ms (docs/performance.md). It links no C audio library.
        .executableTarget(
            name: "playbackctl", dependencies: ["ControlCLI"],
            exclude: ["link"], swiftSettings: leanSwift,
            linkerSettings: sanitizing ? [] : [.unsafeFlags(["-static-executable"])] + orderedLink("playbackctl")),
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
        // How the integration tests start long-lived helpers (a C call Swift's Glibc hides).
        .target(name: "CTestSpawn", path: "Tests/CTestSpawn"),
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
                "CTestSpawn",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
