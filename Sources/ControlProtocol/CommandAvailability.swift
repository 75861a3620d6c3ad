/// Which remote commands are enabled, and the skip commands' preferred intervals
/// (`MPSkipIntervalCommand.preferredIntervals`).
public struct CommandAvailability: Sendable, Equatable {
    public private(set) var disabled: Set<CommandName> = []
    /// Commands that cannot act on the current item (`CommandSpec.needsChapters` without
    /// chapters): shown disabled, refused, but not the clients' choice (not saved).
    public var unavailable: Set<CommandName> = []
    public var skipForwardIntervals: [Double]
    public var skipBackwardIntervals: [Double]

    public init(
        disabled: Set<CommandName> = [],
        skipForwardIntervals: [Double] = [CommandCatalog.defaultSkipInterval],
        skipBackwardIntervals: [Double] = [CommandCatalog.defaultSkipInterval]
    ) {
        self.disabled = disabled
        self.skipForwardIntervals = skipForwardIntervals
        self.skipBackwardIntervals = skipBackwardIntervals
    }

    public func isEnabled(_ name: CommandName) -> Bool { !disabled.contains(name) && !unavailable.contains(name) }

    /// This availability for a current item with or without chapters, seekable or not (a live
    /// stream).
    public func forItem(hasChapters: Bool, isSeekable: Bool = true) -> CommandAvailability {
        var availability = self
        availability.unavailable = hasChapters ? [] : CommandAvailability.chapterCommands
        if !isSeekable { availability.unavailable.formUnion(CommandAvailability.seekCommands) }
        return availability
    }

    /// The commands that choose a position in the item.
    public static let seekCommands: Set<CommandName> = [.skipForward, .skipBackward, .changePlaybackPosition]

    /// The commands that need chapters.
    public static let chapterCommands = Set(CommandCatalog.all.filter(\.needsChapters).map(\.name))

    /// Returns true when this changed anything.
    public mutating func set(_ name: CommandName, enabled: Bool) -> Bool {
        enabled ? disabled.remove(name) != nil : disabled.insert(name).inserted
    }

    /// The `commands` reply's list: every remote command with `enabled`, plus
    /// `preferredIntervals` for the skip commands and `supportedPlaybackRates` for
    /// `changePlaybackRate`.
    public var json: JSONValue {
        .array(
            CommandCatalog.all.filter(\.isRemoteCommand).map { spec in
                var members: [(String, JSONValue)] = [
                    ("command", .string(spec.name.rawValue)),
                    ("enabled", .bool(isEnabled(spec.name))),
                ]
                if let intervals = preferredIntervals(spec.name) {
                    members.append(("preferredIntervals", .array(intervals.map(JSONValue.number))))
                }
                if spec.name == .changePlaybackRate {
                    members.append(
                        ("supportedPlaybackRates", .array(CommandCatalog.supportedPlaybackRates.map(JSONValue.number))))
                }
                return .object(members)
            })
    }

    public func preferredIntervals(_ name: CommandName) -> [Double]? {
        switch name {
        case .skipForward: skipForwardIntervals
        case .skipBackward: skipBackwardIntervals
        default: nil
        }
    }
}
