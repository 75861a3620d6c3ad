import PlaybackModel

/// The `nowPlaying` object, written by the daemon and read by `playbackctl` and the tests:
/// one typed value on both sides of the wire.
extension NowPlaying {
    /// The `nowPlaying` object. Cleared now-playing (no item) carries only `state` and the
    /// play modes.
    ///
    /// Built into one array reserved up front: it is made for every `nowPlaying` request and
    /// every pushed event, and joining partial arrays reallocated it several times.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(Self.memberCapacity)
        members.append(("state", .string(state.rawValue)))
        guard let item else {
            appendModes(to: &members)
            return .object(members)
        }
        item.metadata.appendWireMembers(head: true, to: &members)
        members.append(("elapsed", .number(elapsed.roundedToMicroseconds)))
        members.append(("rate", .number(rate)))
        members.append(("timestamp", .number(timestamp.roundedToMicroseconds)))
        if let queueIndex { members.append(("queueIndex", .number(Double(queueIndex)))) }
        members.append(("queueCount", .number(Double(queueCount))))
        if let chapter {
            members.append(("chapterNumber", .number(Double(chapter.number))))
            members.append(("chapterCount", .number(Double(chapter.count))))
            members.append(("chapterTitle", .string(chapter.title)))
            members.append(("chapterStart", .number(chapter.start.roundedToMicroseconds)))
            members.append(("chapterEnd", .number(chapter.end.roundedToMicroseconds)))
        }
        members.append(("sleepTimer", sleepTimerJSON))
        if let loopRange {
            members.append(
                (
                    "loopRange",
                    .object([
                        ("start", .number(loopRange.start.roundedToMicroseconds)),
                        ("end", .number(loopRange.end.roundedToMicroseconds)),
                        ("count", .number(Double(loopRange.count))), ("pass", .number(Double(loopRange.pass))),
                    ])
                ))
        }
        if let phraseMode { members.append(("phraseMode", phraseMode.json)) }
        if let phrase {
            members.append(("phraseNumber", .number(Double(phrase.number))))
            members.append(("phraseCount", .number(Double(phrase.count))))
            members.append(("phraseStart", .number(phrase.start.roundedToMicroseconds)))
            members.append(("phraseEnd", .number(phrase.end.roundedToMicroseconds)))
            members.append(("phraseRepetition", .number(Double(phrase.repetition))))
            members.append(("inPhraseGap", .bool(phrase.inGap)))
        }
        members.append(("assetURL", .string(StreamURL.url(ofItem: item.path))))
        members.append(("mediaType", .string("audio")))
        members.append(("isLiveStream", .bool(false)))
        if let replayGain {
            members.append(
                (
                    "replayGain",
                    .object([("mode", .string(replayGain.source.rawValue)), ("gain", .number(replayGain.gain))])
                ))
        }
        appendModes(to: &members)
        item.metadata.appendWireMembers(head: false, to: &members)
        members.append(("itemID", .number(Double(item.id))))
        return .object(members)
    }

    /// Room for every member: the fixed ones and every track field.
    private static var memberCapacity: Int { 25 + TrackField.all.count }

    /// `sleepTimer`: the time it fires (seconds since the epoch), the boundary it waits for,
    /// or null.
    private var sleepTimerJSON: JSONValue {
        switch sleepTimer {
        case nil: .null
        case .at(let time): .number(time.roundedToMicroseconds)
        case .endOfItem, .endOfChapter: .string(sleepTimer!.boundary!.rawValue)
        }
    }

    /// Reads `sleepTimer`, when there is one.
    private static func sleepTimer(in json: JSONValue) throws(WireDecodingError) -> SleepTimer? {
        switch json["sleepTimer"] {
        case nil, .null?: return nil
        case .number(let time)?: return .at(time)
        case .string(let name)?:
            guard let boundary = SleepTimer.Boundary(rawValue: name) else {
                throw WireDecodingError("nowPlaying: 'sleepTimer' is not valid")
            }
            return SleepTimer(boundary)
        default: throw WireDecodingError("nowPlaying: 'sleepTimer' is not valid")
        }
    }

    /// Reads the chapter members, when there are.
    private static func chapter(in json: JSONValue) throws(WireDecodingError) -> CurrentChapter? {
        guard json["chapterNumber"] != nil else { return nil }
        let reader = WireReader(object: json, context: "nowPlaying")
        return CurrentChapter(
            number: try reader.wholeNumber("chapterNumber"), count: try reader.wholeNumber("chapterCount"),
            title: try reader.string("chapterTitle"), start: try reader.number("chapterStart"),
            end: try reader.number("chapterEnd"))
    }

    private func appendModes(to members: inout [(String, JSONValue)]) {
        members.append(("repeatMode", .string(repeatMode.rawValue)))
        members.append(("shuffleMode", .string(shuffleMode.rawValue)))
        members.append(("singleMode", .string(singleMode.rawValue)))
        members.append(("consumeMode", .string(consumeMode.rawValue)))
        members.append(("volume", .number(volume)))
        members.append(("defaultRate", .number(defaultRate)))
        members.append(("crossfade", crossfade.json))
        if !outputEnabled { members.append(("outputEnabled", .bool(false))) }
        if let routeChange {
            members.append(
                (
                    "routeChange",
                    .object([
                        ("reason", .string(routeChange.reason.rawValue)), ("device", .string(routeChange.device)),
                        ("timestamp", .number(routeChange.timestamp.roundedToMicroseconds)),
                    ])
                ))
        }
        if let deviceError { members.append(("deviceError", .string(deviceError))) }
    }

    /// Reads the `crossfade` member; absent: none.
    private static func crossfade(in json: JSONValue) throws(WireDecodingError) -> Crossfade {
        try json["crossfade"].map { value throws(WireDecodingError) in try Crossfade(json: value) } ?? Crossfade()
    }

    /// Reads the `singleMode` and `consumeMode` members; absent: off.
    private static func stopModes(in json: JSONValue) throws(WireDecodingError) -> (SingleMode, ConsumeMode) {
        let reader = WireReader(object: json, context: "nowPlaying")
        return (
            json["singleMode"] == nil ? .off : try reader.choice("singleMode"),
            json["consumeMode"] == nil ? .off : try reader.choice("consumeMode")
        )
    }

    /// Reads the `outputEnabled` member; absent: on.
    private static func outputEnabled(in json: JSONValue) throws(WireDecodingError) -> Bool {
        guard let value = json["outputEnabled"] else { return true }
        guard let enabled = value.boolValue else {
            throw WireDecodingError("nowPlaying: 'outputEnabled' is not a boolean")
        }
        return enabled
    }

    /// Reads the `routeChange` member, when there is one.
    private static func routeChange(in json: JSONValue) throws(WireDecodingError) -> RouteChange? {
        guard let change = json["routeChange"] else { return nil }
        let reader = WireReader(object: change, context: "nowPlaying.routeChange")
        return RouteChange(
            reason: try reader.choice("reason"), device: try reader.string("device"),
            timestamp: try reader.number("timestamp"))
    }

    /// Reads a `nowPlaying` object written by `json`.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "nowPlaying")
        let state: PlaybackState = try reader.choice("state")
        let repeatMode: RepeatMode = try reader.choice("repeatMode")
        let shuffleMode: ShuffleMode = try reader.choice("shuffleMode")
        let volume = try reader.optionalNumber("volume") ?? 100
        let defaultRate = try reader.optionalNumber("defaultRate") ?? 1
        let routeChange = try Self.routeChange(in: json)
        let deviceError = try reader.optionalString("deviceError")
        // Cleared now-playing carries none of the item's members; one of them alone is an error.
        guard json["title"] != nil || json["assetURL"] != nil || json["itemID"] != nil else {
            self.init(
                state: state, item: nil, elapsed: 0, rate: 0, timestamp: 0, queueIndex: nil, queueCount: 0,
                repeatMode: repeatMode, shuffleMode: shuffleMode, volume: volume, defaultRate: defaultRate,
                routeChange: routeChange)
            self.deviceError = deviceError
            crossfade = try Self.crossfade(in: json)
            outputEnabled = try Self.outputEnabled(in: json)
            (singleMode, consumeMode) = try Self.stopModes(in: json)
            return
        }
        let item = QueueItem(
            id: try reader.wholeNumber("itemID"), path: try reader.path("assetURL"),
            metadata: try TrackMetadata.decoding(json, onWire: true, context: "nowPlaying"))
        var replayGain: AppliedReplayGain?
        if let applied = json["replayGain"] {
            let gainReader = WireReader(object: applied, context: "nowPlaying.replayGain")
            replayGain = AppliedReplayGain(source: try gainReader.choice("mode"), gain: try gainReader.number("gain"))
        }
        self.init(
            state: state, item: item, elapsed: try reader.number("elapsed"), rate: try reader.number("rate"),
            timestamp: try reader.number("timestamp"), queueIndex: try reader.optionalWholeNumber("queueIndex"),
            queueCount: try reader.wholeNumber("queueCount"), repeatMode: repeatMode, shuffleMode: shuffleMode,
            volume: volume, defaultRate: defaultRate, replayGain: replayGain, routeChange: routeChange)
        self.deviceError = deviceError
        crossfade = try Self.crossfade(in: json)
        outputEnabled = try Self.outputEnabled(in: json)
        (singleMode, consumeMode) = try Self.stopModes(in: json)
        chapter = try Self.chapter(in: json)
        sleepTimer = try Self.sleepTimer(in: json)
        if let loop = json["loopRange"] {
            let reader = WireReader(object: loop, context: "nowPlaying.loopRange")
            loopRange = LoopRange(
                itemID: item.id, start: try reader.number("start"), end: try reader.number("end"),
                count: try reader.wholeNumber("count"), pass: try reader.wholeNumber("pass"))
        }
        phraseMode = try json["phraseMode"].map { value throws(WireDecodingError) in try PhraseMode(json: value) }
        if json["phraseNumber"] != nil {
            guard let inGap = json["inPhraseGap"]?.boolValue else {
                throw WireDecodingError("nowPlaying: 'inPhraseGap' is missing or not a boolean")
            }
            phrase = CurrentPhrase(
                number: try reader.wholeNumber("phraseNumber"), count: try reader.wholeNumber("phraseCount"),
                start: try reader.number("phraseStart"), end: try reader.number("phraseEnd"),
                repetition: try reader.wholeNumber("phraseRepetition"), inGap: inGap)
        }
    }
}

extension QueueItem {
    /// One entry of the `queue` reply (`priority` when not 0).
    public var json: JSONValue {
        .object(
            [("id", .number(Double(id)))] + metadata.wireMembers(head: true)
                + [("assetURL", .string(StreamURL.url(ofItem: path)))] + metadata.wireMembers(head: false)
                + (priority > 0 ? [("priority", .number(Double(priority)))] : []))
    }

    /// Reads an entry of the `queue` reply.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "queue item")
        self.init(
            id: try reader.wholeNumber("id"), path: try reader.path("assetURL"),
            metadata: try TrackMetadata.decoding(json, onWire: true, context: "queue item"))
        let priority = try reader.optionalWholeNumber("priority") ?? 0
        guard priority <= 255 else { throw WireDecodingError("queue item: 'priority' \(priority) is above 255") }
        self.priority = UInt8(priority)
    }
}
