import CSystemd
import ControlClient
import ControlProtocol
@_spi(Benchmark) import PlaybackDaemon
@_spi(Benchmark) import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

// Round-trip measurements for Scripts/bench.
//   playbackd-bench rtt SOCKET COUNT      COUNT `nowPlaying` requests on one connection, one at
//                                         a time; prints p50, p99 and max in microseconds.
//   playbackd-bench rtt-until SOCKET FILE the same, until FILE exists (to measure while another
//                                         client's request is being answered).
//   playbackd-bench rtt-request SOCKET COUNT JSON
//                                         the same with the request line JSON (a library query).
//   playbackd-bench echo SOCKET BYTES     a poll(2) server answering every line with BYTES bytes:
//                                         the floor a request/reply over a Unix socket costs on
//                                         this machine, measured with the same client.
//   playbackd-bench until-audible SOCKET COUNT PATH [SECONDS]
//                                         COUNT times: `enqueue` PATH (replace, play) and wait for
//                                         the pushed start (rate 1: the device plays), then `stop`;
//                                         the time from sending to that event, same output. With
//                                         SECONDS: enqueue without play and seek there first, and
//                                         time `play` alone.
//   playbackd-bench history-backlog FILE COUNT
//                                         COUNT listens written to the listening history FILE in
//                                         one transaction (a backlog for the scrobbling tests).
//   playbackd-bench history-write FILE COUNT
//                                         the same, each listen its own durable transaction, as
//                                         the daemon writes one: median and max per write.
//   playbackd-bench loudness FILE [true-peak|decode]
//                                         FILE decoded and its loudness measured on this thread
//                                         (true-peak: the true peak too; decode: decoding alone):
//                                         "LOUDNESS cpu SECONDS s realtime RATE".
//   playbackd-bench sound-chain           the sound chain in this process, one minute of 44.1 kHz
//                                         stereo a run, with each implementation of its inner
//                                         loops this processor runs: CPU seconds with the chain
//                                         off, volume 70 alone, the `warm` preset's ten bands, the
//                                         curve with a ReplayGain and volume 70, and sixteen
//                                         bands; one line each, "KERNEL SETTING SECONDS".
//   playbackd-bench state-read FILE      reads a resume state file as the daemon does at start
//                                         (parse and check every item, not the files' existence),
//                                         30 times; prints "ITEMS items, least MS ms, median MS ms".
//   playbackd-bench dbus-get NAME PROPERTY TYPE COUNT
//                                         COUNT `Get` calls of an MPRIS Player property of NAME on
//                                         the session bus (sd-bus, one at a time); same output.

func monotonicMicroseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}

func measureRoundTrips(
    socket: String, count: Int, until stopFile: String? = nil, request line: String = #"{"command":"nowPlaying"}"#
) throws -> [Double] {
    let client = try ControlClient(path: socket)
    let request = line + "\n"
    var samples: [Double] = []
    samples.reserveCapacity(min(count, 100_000))
    for _ in 0..<count {
        if let stopFile, access(stopFile, F_OK) == 0 { break }
        let start = monotonicMicroseconds()
        // The raw line, so the figure is the server's, not this client's JSON parsing.
        try client.sendRaw(request)
        let reply = try client.readRawLine(timeout: 5) ?? ""
        samples.append(monotonicMicroseconds() - start)
        guard reply.hasPrefix(#"{"status":"success""#) else {
            Console.error("unexpected reply: \(reply)\n")
            exit(1)
        }
    }
    return samples.sorted()
}

func measureUntilAudible(socket: String, count: Int, path: String, from position: Double?) throws -> [Double] {
    // Commands on one connection, pushed events on another: a subscribed connection's replies
    // and events interleave.
    let commands = try ControlClient(path: socket)
    let events = try ControlClient(path: socket)
    _ = try events.request(.object([("command", .string("subscribe"))]))
    let enqueue = JSONValue.object([
        ("command", .string("enqueue")), ("items", .array([.string(path)])), ("replace", .bool(true)),
        ("play", .bool(position == nil)),
    ])
    var samples: [Double] = []
    for _ in 0..<count {
        var measured = enqueue
        if let position {
            try expectSuccess(try commands.request(enqueue))
            try expectSuccess(
                try commands.request(
                    .object([("command", .string("changePlaybackPosition")), ("position", .number(position))])))
            measured = .object([("command", .string("play"))])
        }
        let start = monotonicMicroseconds()
        try commands.send(measured)
        try waitForEvent(on: events) { $0["nowPlaying"]?["rate"]?.numberValue == 1 }
        samples.append(monotonicMicroseconds() - start)
        try expectSuccess(try commands.readLine(timeout: 10))
        try expectSuccess(try commands.request(.object([("command", .string("stop"))])))
        try waitForEvent(on: events) { $0["nowPlaying"]?["state"]?.stringValue == "stopped" }
    }
    return samples.sorted()
}

/// Exits with the reply when it is not a success.
func expectSuccess(_ reply: JSONValue?) throws {
    guard reply?["status"]?.stringValue != "success" else { return }
    Console.error("playbackd-bench: \(reply?.serialized ?? "no reply")\n")
    exit(1)
}

/// Reads events until one satisfies `isWanted`; exits when none comes within 10 s.
func waitForEvent(on client: ControlClient, _ isWanted: (JSONValue) -> Bool) throws {
    while true {
        guard let line = try client.readLine(timeout: 10) else {
            Console.error("playbackd-bench: no event within 10 s\n")
            exit(1)
        }
        if line["event"] != nil && isWanted(line) { return }
    }
}

func serveEcho(socket path: String, replyBytes: Int) -> Never {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    unlink(path)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    listen(listener, 4)
    let padding = max(0, replyBytes - 22)
    let reply = Array((#"{"status":"success","x":""# + String(repeating: "x", count: padding) + "\"}\n").utf8)
    while true {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { continue }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, -1)
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            let lines = buffer[..<count].filter { $0 == UInt8(ascii: "\n") }.count
            for _ in 0..<lines { _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } }
        }
        close(client)
    }
}

func measurePropertyGets(busName: String, property: String, type: String, count: Int) -> [Double] {
    var bus: OpaquePointer?
    guard sd_bus_open_user(&bus) >= 0, let bus else {
        Console.error("playbackd-bench: no session bus\n")
        exit(1)
    }
    defer { sd_bus_flush_close_unref(bus) }
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        var error = sd_bus_error()
        var reply: OpaquePointer?
        let start = monotonicMicroseconds()
        let result = sd_bus_get_property(
            bus, busName, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", property, &error, &reply, type)
        samples.append(monotonicMicroseconds() - start)
        sd_bus_message_unref(reply)
        guard result >= 0 else {
            Console.error(
                "playbackd-bench: Get \(property) failed: \(error.message.map { String(cString: $0) } ?? "")\n")
            exit(1)
        }
        sd_bus_error_free(&error)
    }
    return samples.sorted()
}

func readWholeFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes += chunk[..<count]
    }
}

/// The CPU time this thread has used, seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func summary(_ samples: [Double]) -> String {
    func percentile(_ p: Double) -> Int { Int(samples[min(samples.count - 1, Int(Double(samples.count) * p))]) }
    return "p50 \(percentile(0.50)) µs, p99 \(percentile(0.99)) µs, max \(Int(samples.last!)) µs\n"
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.dropFirst().first) {
case (4, "rtt"), (4, "rtt-until"):
    let until = arguments[1] == "rtt-until" ? arguments[3] : nil
    guard let count = until == nil ? Int(arguments[3]) : Int.max, count > 0 else { exit(2) }
    do {
        Console.out(summary(try measureRoundTrips(socket: arguments[2], count: count, until: until)))
    } catch {
        Console.error("playbackd-bench: \(error)\n")
        exit(1)
    }
case (5, "rtt-request"):
    guard let count = Int(arguments[3]), count > 0 else { exit(2) }
    do {
        Console.out(summary(try measureRoundTrips(socket: arguments[2], count: count, request: arguments[4])))
    } catch {
        Console.error("playbackd-bench: \(error)\n")
        exit(1)
    }
case (6, "dbus-get"):
    guard let count = Int(arguments[5]), count > 0 else { exit(2) }
    Console.out(
        summary(measurePropertyGets(busName: arguments[2], property: arguments[3], type: arguments[4], count: count)))
case (5, "until-audible"), (6, "until-audible"):
    guard let count = Int(arguments[3]), count > 0 else { exit(2) }
    let position = arguments.count == 6 ? Double(arguments[5]) : nil
    do {
        Console.out(
            summary(try measureUntilAudible(socket: arguments[2], count: count, path: arguments[4], from: position)))
    } catch {
        Console.error("playbackd-bench: \(error)\n")
        exit(1)
    }
case (2, "sound-chain"):
    let warmCurve = zip(Equalizer.tenBandFrequencies, [3.0, 3, 3, 2, 0, -6, -6, -6, -6, -6]).map {
        EQBand(type: .parametric, frequency: $0, gain: $1)
    }
    let sixteen = (0..<16).map { EQBand(type: .parametric, frequency: 25 * pow(1.5, Double($0)), gain: -3) }
    let settings: [(String, SoundSettings, Double)] = [
        ("off", SoundSettings(), 1),
        ("volume-70", SoundSettings(volume: 0.7), 1),
        ("warm-curve", SoundSettings(equalizer: Equalizer(isEnabled: true, bands: warmCurve)), 1),
        (
            "curve-replaygain-volume",
            SoundSettings(equalizer: Equalizer(isEnabled: true, bands: warmCurve), volume: 0.7), 0.6
        ),
        ("sixteen-bands", SoundSettings(equalizer: Equalizer(isEnabled: true, bands: sixteen)), 1),
    ]
    for kernel in SoundChainBenchmark.kernels {
        for (name, setting, itemGain) in settings {
            // The output thread's calls: 4,096 frames (ALSA devices), 1,024 (the sound server).
            let seconds = SoundChainBenchmark.cpuSecondsPerAudioMinute(
                settings: setting, itemGain: itemGain, kernel: kernel, blockFrames: 4096)
            Console.out("\(kernel) \(name) \(seconds)\n")
        }
    }
case (3, "state-read"):
    guard let bytes = readWholeFile(arguments[2]) else {
        Console.error("playbackd-bench: cannot read \(arguments[2])\n")
        exit(1)
    }
    var times: [Double] = []
    var items: Int?
    for _ in 0..<30 {
        let start = monotonicMicroseconds()
        items = StateFileReading.itemCount(bytes)
        times.append(monotonicMicroseconds() - start)
    }
    guard let items else {
        Console.error("playbackd-bench: the daemon would set \(arguments[2]) aside\n")
        exit(1)
    }
    times.sort()
    let ms = { (microseconds: Double) in String(Double(Int(microseconds / 10)) / 100) }
    Console.out("\(items) items, least \(ms(times[0])) ms, median \(ms(times[15])) ms\n")
case (4, "history-backlog"), (4, "history-write"):
    // A backlog in one transaction (the scrobbling tests), or one durable write a listen.
    guard let count = Int(arguments[3]), count > 0 else { exit(2) }
    do {
        let seconds = try HistoryBenchmark.writeListens(
            path: arguments[2], count: count, start: WallClock.now() - Double(count) * 60 - 3600,
            eachDurable: arguments[1] == "history-write")
        let ms = { (value: Double) in String(Double(Int(value * 100_000)) / 100) }
        Console.out("\(count) listens, median \(ms(seconds[seconds.count / 2])) ms, max \(ms(seconds.last!)) ms\n")
    } catch {
        Console.error("playbackd-bench: \(error)\n")
        exit(1)
    }
case (3, "loudness"), (4, "loudness"):
    // One file decoded and measured on this thread: its loudness, the thread's CPU seconds, and
    // the rate against real time; `true-peak` measures the true peak too, `decode` only decodes.
    let mode = arguments.count == 4 ? arguments[3] : "sample-peak"
    guard ["sample-peak", "true-peak", "decode"].contains(mode) else { exit(2) }
    let open: AudioDecoderFactory = { request throws(DecoderError) in try AudioFileFormat.open(request) }
    let start = threadCPUSeconds()
    do {
        let (frames, rate, loudness): (Int, Int, String)
        if mode == "decode" {
            let decoder = try open(DecoderRequest(path: arguments[2]))
            var buffer = [Int16](repeating: 0, count: 4096 * decoder.format.channels)
            var count = 0
            while case let read = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), read > 0 {
                count += read
            }
            (frames, rate, loudness) = (count / decoder.format.channels, decoder.format.sampleRate, "-")
        } else {
            let analysis = LoudnessAnalysis(truePeak: mode == "true-peak", open: open)
            guard let measured = try analysis.measure(path: arguments[2], isCancelled: { false }) else { exit(1) }
            let value = measured.loudness
            (frames, rate, loudness) = (
                measured.frames, measured.meter.sampleRate, "\(value.integrated ?? -.infinity) LUFS peak \(value.peak)"
            )
        }
        let seconds = threadCPUSeconds() - start
        Console.out("\(loudness) cpu \(seconds) s realtime \(Double(frames) / Double(rate) / seconds)\n")
    } catch {
        Console.error("playbackd-bench: \(error)\n")
        exit(1)
    }
case (4, "echo"):
    serveEcho(socket: arguments[2], replyBytes: Int(arguments[3]) ?? 400)
default:
    Console.error(
        "usage: playbackd-bench rtt SOCKET COUNT | rtt-until SOCKET FILE | until-audible SOCKET COUNT PATH [SECONDS] | echo SOCKET BYTES | dbus-get NAME PROPERTY TYPE COUNT | sound-chain | state-read FILE | history-backlog FILE COUNT | history-write FILE COUNT | loudness FILE [true-peak|decode]\n"
    )
    exit(2)
}
