import ControlProtocol
import Foundation
import Testing

/// A copy of the generated music library (`Scripts/lib/make-library.py`) in a test's world,
/// and the daemon that indexes it, with what the library tests ask of it.
struct LibraryWorld {
    let root: String
    let daemon: DaemonProcess

    /// A fresh copy of the library, and a daemon (with `environment`) that has scanned it.
    init(
        device: String = "null", pulse: Bool = false, environment: [String: String] = [:], root existing: String? = nil,
        arguments: [String] = []
    ) throws {
        if let existing {
            root = existing
        } else {
            root = TestEnvironment.makeTemporaryDirectory() + "/Music"
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("library"), toPath: root)
        }
        daemon = try DaemonProcess(
            device: device, arguments: ["--library-directories", root] + arguments, pulse: pulse,
            environment: environment)
        try waitForScan()
    }

    /// `daemon`, started on the library at `root`; no scan is waited for.
    init(root: String, daemon: DaemonProcess) {
        self.root = root
        self.daemon = daemon
    }

    /// Waits until the library is idle, its first scan done.
    func waitForScan(timeout: Double = 30) throws {
        try waitUntil(timeout: timeout) {
            let status = try self.status()
            return status["state"]?.stringValue == "idle" && status["updatedAt"] != .null
        }
    }

    func status() throws -> JSONValue {
        let reply = try daemon.call("libraryStatus")
        guard let status = reply["library"] else { throw TestFailure("libraryStatus: \(reply.serialized)") }
        return status
    }

    /// The reply to a `libraryQuery` with `members`.
    func query(_ members: [(String, JSONValue)]) throws -> JSONValue {
        try daemon.call("libraryQuery", members)
    }

    /// The titles a query's songs have, in order.
    func titles(_ members: [(String, JSONValue)]) throws -> [String] {
        let reply = try query(members)
        guard reply["status"]?.stringValue == "success" else { throw TestFailure("query: \(reply.serialized)") }
        return reply["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    /// A filter object.
    static func filter(_ field: String, _ value: JSONValue, op: String = "equalTo") -> JSONValue {
        .object([("field", .string(field)), ("op", .string(op)), ("value", value)])
    }

    /// `filters` with one filter.
    static func only(_ field: String, _ value: String, op: String = "equalTo") -> [(String, JSONValue)] {
        [("filters", .array([filter(field, .string(value), op: op)]))]
    }

    /// The id of the one song titled `title`.
    func songID(_ title: String) throws -> String {
        let reply = try query(Self.only("title", title))
        guard let id = reply["items"]?.arrayValue?.first?["id"]?.stringValue else {
            throw TestFailure("no song titled \(title): \(reply.serialized)")
        }
        return id
    }
}
