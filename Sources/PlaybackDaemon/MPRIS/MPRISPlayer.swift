import ControlProtocol
import PlaybackModel
import SystemSupport

/// `org.mpris.MediaPlayer2.Player`: transport, modes, metadata and position. Each method and
/// each writable property becomes one of the protocol's commands; every value comes from the
/// published snapshot and the command availability.
extension MPRIS {
    static let player = MPRISInterface(
        name: "org.mpris.MediaPlayer2.Player",
        methods: [
            MPRISMethod("Next", "nextTrack") { _, _ in .command(.player(.nextTrack)) },
            MPRISMethod("Previous", "previousTrack (restarts the item when more than 3 s in)") { _, _ in
                .command(.player(.previousTrack))
            },
            MPRISMethod("Pause", "pause") { _, _ in .command(.player(.pause)) },
            MPRISMethod("PlayPause", "togglePlayPause") { _, _ in .command(.player(.togglePlayPause)) },
            MPRISMethod("Stop", "stop") { _, _ in .command(.player(.stop)) },
            MPRISMethod("Play", "play") { _, _ in .command(.player(.play)) },
            MPRISMethod(
                "Seek", "skipForward / skipBackward by the offset (microseconds); a jump past the end ends the item",
                input: [BusArgument("Offset", "x")]
            ) { arguments, _ throws(BusCallError) in
                let offset = Double(try arguments.int64()) / 1_000_000
                if offset == 0 { return .nothing }
                return .command(.player(offset > 0 ? .skipForward(interval: offset) : .skipBackward(interval: -offset)))
            },
            MPRISMethod(
                "SetPosition",
                "changePlaybackPosition; ignored when the track id is not the current item's or the position is "
                    + "outside it (the spec)",
                input: [BusArgument("TrackId", "o"), BusArgument("Position", "x")]
            ) { arguments, view throws(BusCallError) in
                let track = try arguments.text("o")
                let position = Double(try arguments.int64()) / 1_000_000
                guard let item = view.snapshot.item, track == trackID(item.id), position >= 0,
                    position <= item.metadata.duration
                else { return .nothing }
                return .command(.player(.changePlaybackPosition(position: position)))
            },
            MPRISMethod(
                "OpenUri", "enqueue after the current item and play it; `file://`, `http://` and `https://` URIs",
                input: [BusArgument("Uri", "s")]
            ) { arguments, _ throws(BusCallError) in
                let uri = try arguments.text()
                guard uri.hasPrefix(bytes: "file://") || StreamURL.isStream(uri) else {
                    throw .invalidArguments("only file://, http:// and https:// URIs can be opened, not '\(uri)'")
                }
                guard let path = StreamURL.item(fromURL: uri), !path.isEmpty else {
                    throw .invalidArguments("'\(uri)' is not a local file URI")
                }
                return .command(.enqueue(paths: [path], placement: .next, replace: false, play: true))
            },
        ],
        properties: [
            MPRISProperty("PlaybackStatus", "s", .change, "Playing, Paused (also when interrupted) or Stopped") {
                .string(playbackStatus($0.snapshot.state))
            },
            MPRISProperty(
                "LoopStatus", "s", .change, "None, Track or Playlist: the repeat mode (off, one, all)",
                value: { .string(loopStatus($0.snapshot.repeatMode)) },
                write: { reader, _ throws(BusCallError) in
                    let status = try reader.text()
                    guard let mode = RepeatMode.allCases.first(where: { loopStatus($0) == status }) else {
                        throw .invalidArguments("LoopStatus is None, Track or Playlist, not '\(status)'")
                    }
                    return .command(.player(.changeRepeatMode(mode)))
                }),
            MPRISProperty(
                "Rate", "d", .change,
                "the playback rate (defaultRate); writing it is changePlaybackRate, writing 0 pauses (the spec)",
                value: { .double($0.snapshot.defaultRate) },
                write: { reader, _ throws(BusCallError) in
                    let rate = try reader.double()
                    if rate == 0 { return .command(.player(.pause)) }
                    let range = CommandCatalog.playbackRateRange
                    guard range.contains(rate) else {
                        throw .invalidArguments(
                            "Rate must be 0 (pause) or \(range.lowerBound) - \(range.upperBound), not \(rate)")
                    }
                    return .command(.player(.changePlaybackRate(.to(rate))))
                }),
            MPRISProperty(
                "Shuffle", "b", .change, "the shuffle mode (items or off)",
                value: { .boolean($0.snapshot.shuffleMode != .off) },
                write: { reader, _ throws(BusCallError) in
                    .command(.player(.changeShuffleMode(try reader.boolean() ? .items : .off)))
                }),
            MPRISProperty("Metadata", "a{sv}", .change, "the current item (see the table below)") {
                metadata($0.snapshot.item)
            },
            MPRISProperty(
                "Volume", "d", .change, "the software volume, 0.0 - 1.0; writing it is changeVolume (above 1.0: 1.0)",
                value: { .double($0.snapshot.volume / 100) },
                write: { reader, _ throws(BusCallError) in
                    let level = try reader.double()
                    guard level.isFinite else { throw .invalidArguments("Volume must be a number, not \(level)") }
                    return .command(.player(.changeVolume(.to(min(1, max(0, level)) * 100))))
                }),
            MPRISProperty("Position", "x", .nothing, "microseconds into the item, extrapolated; never announced") {
                .int64($0.positionMicroseconds)
            },
            MPRISProperty("MinimumRate", "d", .constant, "0.5") { _ in
                .double(CommandCatalog.playbackRateRange.lowerBound)
            },
            MPRISProperty("MaximumRate", "d", .constant, "3.0") { _ in
                .double(CommandCatalog.playbackRateRange.upperBound)
            },
            MPRISProperty("CanGoNext", "b", .change, "nextTrack is enabled and there is an item") {
                .boolean($0.can(.nextTrack))
            },
            MPRISProperty("CanGoPrevious", "b", .change, "previousTrack is enabled and there is an item") {
                .boolean($0.can(.previousTrack))
            },
            MPRISProperty("CanPlay", "b", .change, "play is enabled, the queue is not empty and the output is on") {
                .boolean($0.availability.isEnabled(.play) && $0.snapshot.queueCount > 0 && $0.snapshot.outputEnabled)
            },
            MPRISProperty("CanPause", "b", .change, "pause is enabled and there is an item") {
                .boolean($0.can(.pause))
            },
            MPRISProperty("CanSeek", "b", .change, "changePlaybackPosition is enabled and there is an item") {
                .boolean($0.can(.changePlaybackPosition))
            },
            MPRISProperty("CanControl", "b", .constant, "true") { _ in .boolean(true) },
        ],
        signals: [
            .signal(
                "Seeked", [BusArgument("Position", "x")],
                "the position jumped (seek, skip, restart, a repeat-one loop point): where it landed, in microseconds")
        ])

    static func playbackStatus(_ state: PlaybackState) -> String {
        switch state {
        case .playing: "Playing"
        case .paused, .interrupted: "Paused"
        case .stopped: "Stopped"
        }
    }

    static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }
}
