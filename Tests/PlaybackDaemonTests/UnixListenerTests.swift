import ControlProtocol
import Foundation
import Testing

@testable import PlaybackDaemon

/// `UnixListener.bind`, which binds beside the path and links the socket there once it listens:
/// the socket ends up private and alone in its directory, a live socket on the path is refused
/// and a stale one replaced, and a path with no room beside it still works.
@Suite struct UnixListenerTests {
    /// Calls `body` with a new directory and the socket path in it; removes the directory after.
    private static func inDirectory(_ body: (_ directory: String, _ path: String) throws -> Void) throws {
        let directory = NSTemporaryDirectory() + "/listener-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory, directory + "/control.sock")
    }

    private static func connects(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return UnixSocketAddress(path: path)!.connect(fd) == 0
    }

    @Test("the socket is at the path, mode 0600, listening, with no temporary name left beside it")
    func bindsAndLinks() throws {
        try Self.inDirectory { directory, path in
            let listener = try UnixListener.bind(path: path)
            // Closed once, at the end: a second close could close another test's descriptor.
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            #expect(attributes?[.type] as? FileAttributeType == .typeSocket)
            #expect(attributes?[.posixPermissions] as? Int == 0o600)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: directory)) == ["control.sock"])
            #expect(Self.connects(path))
            #expect(listener.isReachableAtPath)
            listener.close()
            #expect(!FileManager.default.fileExists(atPath: path), "removed when closed")
        }
    }

    @Test("a second daemon on the same path is refused and the first keeps it; a stale file is replaced")
    func liveAndStale() throws {
        try Self.inDirectory { directory, path in
            let first = try UnixListener.bind(path: path)
            #expect(throws: ListenerError.self) { try UnixListener.bind(path: path) }
            #expect(first.isReachableAtPath && Self.connects(path))
            #expect((try? FileManager.default.contentsOfDirectory(atPath: directory)) == ["control.sock"])
            first.closeDescriptor()  // as a daemon that died: the file stays, nobody listens
            #expect(!Self.connects(path))
            let second = try UnixListener.bind(path: path)
            defer { second.close() }
            #expect(Self.connects(path))
        }
    }

    @Test("a path with no room for a name beside it is bound directly")
    func longPath() throws {
        try Self.inDirectory { directory, _ in
            let room = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
            let path = directory + "/" + String(repeating: "s", count: room - directory.utf8.count - 1)
            #expect(path.utf8.count == room)
            let listener = try UnixListener.bind(path: path)
            defer { listener.close() }
            #expect(Self.connects(path))
        }
    }
}
