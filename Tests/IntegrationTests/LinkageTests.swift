import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 15: how the two programs are linked for memory (Package.swift, `orderedLink`):
    /// the functions that run placed first, the C++ runtime linked in, every function bound at
    /// start; and the pages the daemon gives back (`ResidentCode`). A sanitized build links
    /// dynamically and is not checked.
    @Suite(.enabled(if: TestEnvironment.sanitizer == nil)) struct Linkage {
        /// `program`'s functions in the order of their addresses (`nm -n`): each address with
        /// its name. Functions the linker folded into one (`--icf=all`) share an address.
        static func functionsByAddress(_ program: String) throws -> [(address: Substring, name: String)] {
            let run = try CommandLineRun.run(
                executable: "/usr/bin/nm", ["--defined-only", "-n", TestEnvironment.binDirectory + "/" + program])
            guard run.status == 0 else { throw TestFailure("nm \(program): \(run.stderr)") }
            return run.stdout.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count == 3, ["t", "T", "w", "W"].contains(fields[1]) else { return nil }
                return (fields[0], String(fields[2]))
            }
        }

        @Test(
            "each program's text opens with the functions its list names",
            arguments: ["playbackd", "playbackctl"])
        func functionsThatRunComeFirst(program: String) throws {
            let listPath = TestEnvironment.packageRoot + "/Sources/\(program)/link/hot-functions.txt"
            let listed = Set(
                try String(contentsOfFile: listPath, encoding: .utf8).split(separator: "\n").map(String.init))
            let functions = try Self.functionsByAddress(program)
            // A debug build has fewer of the names (less is specialized), but those it has lead.
            let present = functions.filter { listed.contains($0.name) }.count
            #expect(present > 300, "\(present) of the \(listed.count) listed functions are in the \(program) built")
            // Unordered, listed functions lie all over the text (none among the first 100 of a
            // build linked without the list); a section holding several functions (the standard
            // library's main one) brings unlisted ones in after the first hundred or so. A name
            // folded into a listed function's code is where that function is.
            let listedAddresses = Set(functions.filter { listed.contains($0.name) }.map(\.address))
            let strays = functions.prefix(100).filter { !listedAddresses.contains($0.address) }.map(\.name)
            #expect(strays.isEmpty, "\(strays.count) of the first 100 functions are not listed: \(strays.prefix(5))")
        }

        @Test(
            "the daemon binds every function at start, and gives back its files' read-only pages once ready, after a library scan and once a start has settled"
        )
        func residentCodeReleased() throws {
            let dynamic = try CommandLineRun.run(
                executable: "/usr/bin/readelf", ["-d", TestEnvironment.binDirectory + "/playbackd"])
            #expect(dynamic.stdout.contains("BIND_NOW"), "linked with -z now: \(dynamic.stdout)")
            let library = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: library) }
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("one.mp3"), toPath: library + "/one.mp3")
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", arguments: ["--library-directories", library], pulse: true)
            _ = try daemon.nowPlaying()
            let released = { (phase: String) in
                daemon.stderrText.split(separator: "\n").first { $0.contains("read-only file pages after \(phase)") }
            }
            // The line is logged before READY=1, so before the first reply.
            let afterStart = try #require(released("start-up"))
            #expect(!afterStart.contains("unmapped 0 KiB"), "\(afterStart)")
            // The scan at start, or one asked for now, ends with a release.
            _ = try daemon.call("libraryUpdate")
            try waitUntil(timeout: 60, state: { String(daemon.stderrText.suffix(2000)) }) {
                released("a library scan") != nil
            }
            _ = try daemon.enqueue(["long.mp3"], play: true)
            // ResidentCode.settleSeconds (5) after the device started, at most a second later.
            try waitUntil(timeout: 60, state: { String(daemon.stderrText.suffix(2000)) }) {
                released("the device started") != nil
            }
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing", "still playing")
            #expect(daemon.terminate() == 0)
        }

        @Test("the running daemon maps no shared C++ library or unwinder: the runtime's are linked in")
        func noSharedCPlusPlusLibrary() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.nowPlaying()  // running: every library is loaded
            // Read to the end: /proc files have no size, and a single read of this one stops short.
            guard let file = FileHandle(forReadingAtPath: "/proc/\(daemon.pid)/maps") else {
                throw TestFailure("cannot open /proc/\(daemon.pid)/maps")
            }
            let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
            #expect(maps.contains("/libasound.so"), "the maps list the shared libraries")
            for library in ["libstdc++", "libgcc_s"] {
                #expect(!maps.contains(library), "\(maps.split(separator: "\n").filter { $0.contains(library) })")
            }
        }
    }
}
