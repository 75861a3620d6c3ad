import ControlProtocol
import Foundation

/// A private snapserver (Debian's 0.26) on loopback ports of its own, with snapclients that
/// play into files (`--player file`), for the Snapcast output's tests.
final class SnapcastRig {
    let directory = TestEnvironment.makeTemporaryDirectory()
    /// The stream source's port (snapserver listens, playbackd connects), the clients' port
    /// and the JSON-RPC control port.
    let sourcePort = SnapcastRig.freePort()
    let streamPort = SnapcastRig.freePort()
    let controlPort = SnapcastRig.freePort()
    let httpPort = SnapcastRig.freePort()
    private var server: SpawnedProcess?
    private var clients: [SpawnedProcess] = []

    /// playbackd's `--snapcast` value for this server.
    var address: String { "tcp://127.0.0.1:\(sourcePort)" }
    /// The daemon socket the stream plugin talks to, when the stream has one.
    private let pluginSocket: String?

    /// `pluginSocket`: run playbackd's stream plugin (`playbackd-snapcast`, a link to the
    /// built playbackctl) for the stream, talking to the daemon on that socket.
    init(pluginSocket: String? = nil) throws {
        self.pluginSocket = pluginSocket
        var plugin = ""
        if pluginSocket != nil {
            let link = directory + "/playbackd-snapcast"
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: TestEnvironment.binDirectory + "/playbackctl")
            plugin = "&controlscript=\(link)"
        }
        let configuration = """
            [server]
            datadir = \(directory)/data
            [http]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(httpPort)
            doc_root =
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = tcp://127.0.0.1:\(sourcePort)/?name=playbackd&mode=server&sampleformat=48000:16:2\(plugin)
            [logging]
            sink = file:\(directory)/snapserver.log
            """
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try configuration.write(toFile: directory + "/snapserver.conf", atomically: true, encoding: .utf8)
        try startServer()
    }

    deinit {
        server?.kill()
        clients.forEach { $0.kill() }
    }

    func startServer() throws {
        var environment = ["HOME=\(directory)", "PATH=/usr/bin:/bin"]
        if let pluginSocket { environment.append("PLAYBACKD_SOCKET=\(pluginSocket)") }
        server = try SpawnedProcess(
            ["/usr/bin/snapserver", "-c", directory + "/snapserver.conf"], environment: environment)
        guard waitForPort(sourcePort, timeout: 10) else { throw TestFailure("snapserver did not listen") }
    }

    func killServer() {
        server?.kill()
        server = nil
    }

    /// Starts a client that writes what it plays (48 kHz s16 stereo) to the returned path.
    func addClient(_ name: String) throws -> String {
        let path = directory + "/\(name).raw"
        clients.append(
            try SpawnedProcess(
                [
                    "/usr/bin/snapclient", "-h", "127.0.0.1", "-p", String(streamPort), "-i",
                    String(clients.count + 1), "--hostID", name, "--player", "file:filename=\(path)",
                ], environment: ["HOME=\(directory)"]))
        return path
    }

    /// One request to snapserver's JSON-RPC control port, as Snapweb would send it; the reply's
    /// `result` (or its `error`).
    func control(_ method: String, _ params: JSONValue) throws -> JSONValue {
        guard let fd = Self.connectLoopback(port: controlPort) else {
            throw TestFailure("cannot reach snapserver's control port")
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = JSONValue.object([
            ("id", .number(7)), ("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params),
        ])
        let line = Array((request.serialized + "\r\n").utf8)
        guard line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == line.count else {
            throw TestFailure("cannot send to snapserver")
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let text = buffer[..<newline]
                buffer.removeSubrange(...newline)
                guard let reply = try? JSONParser.parse(text), reply["id"]?.numberValue == 7 else { continue }
                if let error = reply["error"] { return .object([("error", error)]) }
                return reply["result"] ?? .null
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw TestFailure("snapserver did not answer \(method)") }
            buffer += chunk[..<count]
        }
    }

    /// The `playbackd` stream's properties as `Server.GetStatus` shows them.
    func streamProperties() throws -> JSONValue? {
        let status = try control("Server.GetStatus", .object([]))
        return status["server"]?["streams"]?.arrayValue?.first { $0["id"]?.stringValue == "playbackd" }?["properties"]
    }

    /// Stops the clients as a user would (SIGTERM): each closes its file, whose last writes
    /// its C library may still hold until then.
    func stopClients() {
        clients.forEach { $0.terminate() }
    }

    /// Samples of the left channel a client wrote so far (buffered writes may be missing
    /// until the client stops: `stopClients`).
    static func left(_ path: String) -> [Float] {
        left(FileManager.default.contents(atPath: path) ?? Data())
    }

    /// Samples of the left channel of 16-bit stereo.
    static func left(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: samples.count - 1, by: 2).map { Float(samples[$0]) }
        }
    }

    private func waitForPort(_ port: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // The source port accepts one player: a probe that connected is closed at once and
            // snapserver waits for the next.
            if let fd = Self.connectLoopback(port: port) {
                close(fd)
                return true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// A TCP connection to `port` on 127.0.0.1; nil when nothing accepts it.
    static func connectLoopback(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// How well a capture holds a reference: each window of the reference against the capture at
/// the best offset within a few frames of where the first window was found.
enum WindowCorrelation {
    /// The offset in the capture where `reference`'s first 100 ms fit best, searched within
    /// 10 ms of the first sound (the reference starts with sound).
    static func alignment(of reference: [Float], in capture: [Float]) -> Int? {
        guard let firstSound = capture.firstIndex(where: { abs($0) > 200 }) else { return nil }
        let length = 4800
        var best = (score: -1.0, offset: 0)
        for offset in max(0, firstSound - 480)..<(firstSound + 480) where offset + length <= capture.count {
            let score = correlation(reference[0..<length], capture[offset..<(offset + length)])
            if score > best.score { best = (score, offset) }
        }
        return best.score > 0.9 ? best.offset : nil
    }

    /// The lowest best correlation over `reference`'s windows of `window` frames (missing
    /// audio counts 0), each searched within `slack` frames.
    static func worstWindow(
        _ reference: [Float], in capture: [Float], at offset: Int, window: Int = 4800, slack: Int = 8,
        upTo end: Int
    ) -> (score: Double, at: Int) {
        var worst = (score: 1.0, at: 0)
        for start in stride(from: 0, to: end - window + 1, by: window) {
            var best = 0.0
            for shift in -slack...slack {
                let from = offset + start + shift
                guard from >= 0, from + window <= capture.count else { continue }
                best = max(best, correlation(reference[start..<(start + window)], capture[from..<(from + window)]))
            }
            if best < worst.score { worst = (best, start) }
        }
        return worst
    }

    /// Where the 100 ms of `reference` centred on `second` are in `capture`, searched
    /// within `within` seconds of `near` (a frame of the capture), on every fourth sample (the
    /// grids of the two may differ by a few frames, so a true fit scores above 0.9, not 1);
    /// nil when nothing there fits.
    static func locate(
        _ reference: [Float], second: Double, in capture: [Float], near: Int, within: Double
    ) -> Int? {
        let start = (Int(second * 48_000) - 2400) / 4
        let pattern = stride(from: 0, to: reference.count, by: 4).map { reference[$0] }
        let decimated = stride(from: 0, to: capture.count, by: 4).map { capture[$0] }
        guard start >= 0, start + 1200 <= pattern.count else { return nil }
        let reach = Int(within * 12_000)
        var best: (at: Int, score: Double)?
        for candidate in max(0, near / 4 - 600 - reach)..<max(0, min(decimated.count - 1200, near / 4 - 600 + reach)) {
            let score = correlation(pattern[start..<(start + 1200)], decimated[candidate..<(candidate + 1200)])
            if score > (best?.score ?? 0.9) { best = (candidate, score) }
        }
        return best.map { $0.at * 4 + 2400 }
    }

    static func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                var ab: Float = 0
                var aa: Float = 0
                var bb: Float = 0
                for index in 0..<min(x.count, y.count) {
                    ab += x[index] * y[index]
                    aa += x[index] * x[index]
                    bb += y[index] * y[index]
                }
                return aa > 0 && bb > 0 ? Double(ab) / (Double(aa) * Double(bb)).squareRoot() : 0
            }
        }
    }
}

/// A TCP listener on loopback that keeps what one connection sends, read as it comes on a
/// thread of its own, and with `forwardingTo` passes it on to that port (a relay in front of
/// snapserver's source): what playbackd writes to a Snapcast source.
final class StreamListener: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let forwardPort: Int?
    private let lock = NSLock()
    private var data = Data()
    /// When each piece arrived (seconds since the epoch).
    private var arrivals: [Double] = []
    private var closed = false

    init(forwardingTo forwardPort: Int? = nil) throws {
        self.forwardPort = forwardPort
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, length) == 0 && getsockname(listening, $0, &length) == 0
            }
        }
        fd = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound, listen(fd, 1) == 0 else { throw TestFailure("cannot listen on loopback") }
        let thread = Thread { [self] in readOneConnection() }
        thread.start()
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func readOneConnection() {
        let connection = accept(fd, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        let forward = forwardPort.flatMap { SnapcastRig.connectLoopback(port: $0) }
        defer { if let forward { close(forward) } }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count > 0, let forward {
                _ = chunk.withUnsafeBytes { send(forward, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            }
            lock.lock()
            defer { lock.unlock() }
            guard count > 0 else {
                closed = true
                return
            }
            data.append(contentsOf: chunk[..<count])
            arrivals.append(Date().timeIntervalSince1970)
        }
    }

    /// What the connection sent so far.
    func received() throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }

    /// Seconds from the first piece that arrived to the last.
    func sendingSpan() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return (arrivals.last ?? 0) - (arrivals.first ?? 0)
    }

    /// What the connection sent, once it closed; throws when it is still open after `timeout`
    /// seconds.
    func receivedUntilClosed(timeout: Double) throws -> Data {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            lock.lock()
            let done = closed ? data : nil
            lock.unlock()
            if let done { return done }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestFailure("the connection stayed open")
    }
}
