import ControlProtocol
import PlaybackModel

/// MPD's `repeat`, `single` and `consume` over playbackd's modes. MPD's repeat with single is
/// playbackd's repeat-one; its `oneshot` is `once`. One difference, in docs/mpd.md: `single
/// oneshot` with repeat on stops after the song here, where MPD plays it once more.
struct MPDModes: Equatable {
    var repeats: Bool
    var single: SingleMode

    init(_ shown: NowPlaying) {
        repeats = shown.repeatMode != .off
        single = shown.repeatMode == .one ? .on : shown.singleMode
    }

    /// The commands that give the player these modes.
    var commands: [PlayerCommand] {
        switch (repeats, single) {
        case (true, .on): [.changeSingleMode(.off), .changeRepeatMode(.one)]
        case (true, let single): [.changeRepeatMode(.all), .changeSingleMode(single)]
        case (false, let single): [.changeRepeatMode(.off), .changeSingleMode(single)]
        }
    }

    /// `0`, `1` or `oneshot`, as `status` writes single and consume.
    static func word<Mode: RawRepresentable>(_ mode: Mode) -> String where Mode.RawValue == String {
        switch mode.rawValue {
        case "off": "0"
        case "on": "1"
        default: "oneshot"
        }
    }

    /// A mode of `command` (single or consume) from `0`, `1` or `oneshot`, with MPD's message
    /// for anything else.
    static func mode<Mode: RawRepresentable>(_ text: String, of command: String) -> Result<Mode, MPDError>
    where Mode.RawValue == String {
        let raw = ["0": "off", "1": "on", "oneshot": "once"][text]
        guard let mode = raw.flatMap(Mode.init(rawValue:)) else {
            return .failure(MPDError(.argument, "Unrecognized \(command) mode, expected 0, 1 or oneshot"))
        }
        return .success(mode)
    }
}
