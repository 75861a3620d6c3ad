import PlaybackModel

/// The `Metadata` property: the item's track id and URL, then every `TrackField` that has an
/// MPRIS key, in the type MPRIS wants (lists as `as`, numbers as `i`, the length in
/// microseconds as `x`, paths as `file://` URIs).
extension MPRIS {
    static func metadata(_ item: QueueItem?) -> BusValue {
        guard let item else { return .dictionary([BusEntry("mpris:trackid", .objectPath(noTrack))]) }
        var entries = [
            BusEntry("mpris:trackid", .objectPath(trackID(item.id))),
            BusEntry("xesam:url", .string(StreamURL.url(ofItem: item.path))),
        ]
        for field in TrackField.all {
            guard let key = field.mpris, let value = field.value(in: item.metadata) else { continue }
            entries.append(BusEntry(key.name, busValue(value, of: field, key: key)))
        }
        return .dictionary(entries)
    }

    private static func busValue(_ value: TrackFieldValue, of field: TrackField, key: TrackField.MPRISKey) -> BusValue {
        switch value {
        case .text(let text):
            if case .path = field.storage { return .string(FileURL.from(path: text)) }
            return key.isList ? .strings([text]) : .string(text)
        case .number(let number): return .int32(Int32(clamping: number))
        case .seconds(let seconds): return .int64(microseconds(seconds))
        case .decimal(let value): return .double(value)
        }
    }
}
