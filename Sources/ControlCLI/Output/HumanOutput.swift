import ControlProtocol
import PlaybackModel
import SystemSupport

/// How replies read on a terminal. Pure functions of the reply, so tests compare exact text.
public enum HumanOutput {
    /// Text for a command's successful outcome; empty for commands that need no answer.
    public static func render(_ outcome: CommandOutcome) -> String {
        switch outcome {
        case .queuePage(let page): queue(page)
        case .commands(let availability): commands(availability)
        case .enqueued(let outcome): enqueued(outcome)
        case .equalizer(let curve, let presets): equalizer(curve, presets: presets)
        case .position(let seconds): "position \(TimeText.format(seconds))\n"
        case .chapters(let chapters): self.chapters(chapters)
        case .bookmarks(let bookmarks): self.bookmarks(bookmarks)
        case .phrases(let list): phrases(list)
        case .library(let page): LibraryOutput.page(page)
        case .libraryStatus(let status): LibraryOutput.status(status)
        case .libraryFailures(let failures, let total): LibraryOutput.failures(failures, total: total)
        case .listeningHistory(let page): history(page)
        case .scrobbleStatus(let services): scrobbling(services)
        case .scrobbleLogin(let login):
            login.authorised
                ? "authorised: the session is kept\n"
                : login.url.map { "allow playbackd at this address:\n\($0)\n" } ?? "not allowed yet\n"
        case .done, .nowPlaying, .removed: ""
        }
    }

    /// The widest a status line gets.
    public static let columns = 80

    /// `[playing] Artist - Title`, the album, then `elapsed / duration  (index/count)`, the
    /// skip intervals when `commands` is known and a skip is enabled, and the play modes and
    /// crossfade that are on, why playback is interrupted, an output that is off, and the
    /// latest route change when there was one; each line fits 80 columns.
    public static func status(
        _ nowPlaying: NowPlaying, commands: CommandAvailability? = nil, now: Double, style: TerminalStyle = .plain
    ) -> String {
        let state = nowPlaying.state.rawValue
        let tag = "[\(state)]"
        let route =
            (nowPlaying.outputEnabled ? "" : "output off (playbackctl output-on)\n")
            + (nowPlaying.routeChange.map {
                DisplayWidth.fit(RenderedPiece.singleLine(routeLine($0)), columns: columns) + "\n"
            } ?? "")
        guard let item = nowPlaying.item else { return style.stateTag(state) + "\n" + route }
        var lines = [tag + " " + track(item.metadata)]
        if let album = item.metadata.album { lines.append(album) }
        let elapsed = nowPlaying.position(at: now)
        // A live stream has no duration: only the time listened.
        var timing =
            item.metadata.isSeekable
            ? "\(TimeText.format(elapsed)) / \(TimeText.format(item.metadata.duration))"
            : "\(TimeText.format(elapsed)) live"
        if let index = nowPlaying.queueIndex { timing += "  (\(index + 1)/\(nowPlaying.queueCount))" }
        if let commands, let skips = skipIntervals(commands) { timing += "  skip \(skips)" }
        if nowPlaying.repeatMode != .off { timing += "  repeat \(nowPlaying.repeatMode.rawValue)" }
        if nowPlaying.shuffleMode == .items { timing += "  shuffle" }
        if nowPlaying.singleMode != .off { timing += "  single \(nowPlaying.singleMode.rawValue)" }
        if nowPlaying.consumeMode != .off { timing += "  consume \(nowPlaying.consumeMode.rawValue)" }
        if nowPlaying.crossfade.isOn {
            let crossfade = nowPlaying.crossfade
            timing +=
                "  crossfade \(JSONValue.number(crossfade.seconds).serialized) s\(crossfade.mode == .albums ? " (albums)" : "")"
        }
        lines.append(timing)
        if let chapter = nowPlaying.chapter {
            lines.append("chapter \(chapter.number + 1)/\(chapter.count): \(chapter.title)")
        }
        if let loop = nowPlaying.loopRange {
            let passes = loop.count == 0 ? "endless" : "of \(loop.count)"
            lines.append(
                "loop \(TimeText.format(loop.start)) - \(TimeText.format(loop.end)), pass \(loop.pass) \(passes)")
        }
        if let mode = nowPlaying.phraseMode {
            var line = "phrase mode, \(mode.repeats)x"
            if let phrase = nowPlaying.phrase {
                line =
                    "phrase \(phrase.number + 1)/\(phrase.count), repeat \(phrase.repetition + 1) of \(mode.repeats)"
                    + (phrase.inGap ? ", your turn" : "")
            }
            lines.append(line)
        }
        if let sleep = sleepLine(nowPlaying, now: now) { lines.append(sleep) }
        if let error = nowPlaying.deviceError { lines.append(error) }
        lines = lines.map { DisplayWidth.fit(RenderedPiece.singleLine($0), columns: columns) }
        lines[0] = style.stateTag(state) + String(lines[0].dropFirst(tag.count))
        return lines.concatenated(separator: "\n") + "\n" + route
    }

    /// `sleep in 29:59`, `sleep at the end of the item (in 3:10)`: the sleep timer.
    static func sleepLine(_ nowPlaying: NowPlaying, now: Double) -> String? {
        guard let timer = nowPlaying.sleepTimer, let remaining = nowPlaying.sleepRemaining(at: now) else {
            return nil
        }
        let left = TimeText.format(remaining.rounded(.up))
        switch timer {
        case .at: return "sleep in \(left)"
        case .endOfItem: return "sleep at the end of the item (in \(left))"
        case .endOfChapter: return "sleep at the end of the chapter (in \(left))"
        }
    }

    /// One line per chapter: its number, start and title.
    static func chapters(_ chapters: [Chapter]) -> String {
        guard !chapters.isEmpty else { return "(the item has no chapters)\n" }
        let width = String(chapters.count).count
        return chapters.enumerated().map { index, chapter in
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            return "\(padded). \(TimeText.format(chapter.start))  \(chapter.title)\n"
        }.joined()
    }

    /// One line per phrase: its number, start, end and length; then whether the analysis is
    /// still running.
    static func phrases(_ list: PhraseList) -> String {
        let width = String(list.phrases.count).count
        let lines = list.phrases.enumerated().map { index, phrase in
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            return "\(padded). \(TimeText.precise(phrase.start)) - \(TimeText.precise(phrase.end))"
                + "  (\(TimeText.decimal(phrase.length)) s)\n"
        }.joined()
        if !list.isComplete { return lines + "(analysing: more to come)\n" }
        return list.phrases.isEmpty ? "(no phrases: the item is silent)\n" : lines
    }

    /// One line per bookmark: position / duration, title, when, path.
    static func bookmarks(_ bookmarks: [Bookmark]) -> String {
        guard !bookmarks.isEmpty else { return "(no bookmarks)\n" }
        return bookmarks.map { bookmark in
            "\(TimeText.format(bookmark.position)) / \(TimeText.format(bookmark.duration))  \(bookmark.title)  "
                + "(\(TimeText.date(bookmark.saved)))  \(bookmark.path)\n"
        }.joined()
    }

    /// One line a hearing, newest first: when it began, `Artist - Title`, how much was heard of
    /// how long, and `listen`, `practice` or how it ended; a count when the page is not all.
    static func history(_ page: ListenPage) -> String {
        guard !page.listens.isEmpty else { return "(nothing heard)\n" }
        let rows = page.listens.map { listen in
            let name = [listen.artists.first, listen.title ?? FileName.stem(listen.path)].compactMap { $0 }
            let heard = listen.seconds.map { TimeText.format($0) } ?? "…"
            let length = listen.duration > 0 ? " / \(TimeText.format(listen.duration))" : ""
            let how = listen.isListen ? "listen" : listen.isPractice ? "practice" : listen.ending ?? "playing"
            return [TimeText.date(listen.listenedAt), name.joined(separator: " - "), heard + length, how]
        }
        let more = page.total > page.listens.count ? "(\(page.listens.count) of \(page.total))\n" : ""
        return LibraryOutput.columns(rows) + more
    }

    /// One line a service: whether it is on and authorised, what waits, when it last sent,
    /// and what went wrong last.
    static func scrobbling(_ services: [ScrobbleState]) -> String {
        let rows = services.map { state -> [String] in
            guard state.enabled else { return [state.service, "off", "", "", ""] }
            return [
                state.service, state.authorised ? "authorised" : "not authorised", "\(state.pending) pending",
                state.lastSent.map { "sent " + TimeText.date($0) } ?? "never sent",
                (state.setAside > 0 ? "\(state.setAside) set aside " : "") + (state.lastError ?? ""),
            ]
        }
        return LibraryOutput.columns(rows)
    }

    /// `route: Headphones went away` or `route: USB DAC appeared`: the latest route change.
    static func routeLine(_ change: RouteChange) -> String {
        switch change.reason {
        case .oldDeviceUnavailable: "route: \(change.device) went away"
        case .newDeviceAvailable: "route: \(change.device) appeared"
        }
    }

    /// `-15s/+30s` from the enabled skip commands; nil when both are disabled.
    static func skipIntervals(_ availability: CommandAvailability) -> String? {
        func interval(_ name: CommandName, sign: String) -> String? {
            guard availability.isEnabled(name), let seconds = availability.preferredIntervals(name)?.first else {
                return nil
            }
            return "\(sign)\(JSONValue.number(seconds).serialized)s"
        }
        let parts = [interval(.skipBackward, sign: "-"), interval(.skipForward, sign: "+")].compactMap { $0 }
        return parts.isEmpty ? nil : parts.concatenated(separator: "/")
    }

    /// `Artist - Title`, or the title alone.
    static func track(_ metadata: TrackMetadata) -> String {
        metadata.artist.map { "\($0) - \(metadata.title)" } ?? metadata.title
    }

    /// A page of the queue, one line per item.
    static func queue(_ page: QueuePage) -> String {
        let (items, offset, count) = (page.items, page.offset, page.count)
        guard !items.isEmpty else { return "(queue is empty)\n" }
        let width = String(offset + items.count).count
        let more = count - offset - items.count
        let footer = more > 0 ? "(\(more) more; playbackctl --json queue pages with offset and limit)\n" : ""
        return items.enumerated().map { position, item in
            let index = offset + position
            let marker = index == page.currentIndex ? ">" : " "
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            let duration = item.metadata.isSeekable ? TimeText.format(item.metadata.duration) : "live"
            return "\(marker)\(padded). \(track(item.metadata)) (\(duration))\n"
        }.joined() + footer
    }

    /// Every remote command, whether it is enabled, and the skip commands' intervals.
    static func commands(_ availability: CommandAvailability) -> String {
        CommandCatalog.all.filter(\.isRemoteCommand).map { spec in
            var line = spec.name.rawValue.padding(to: 24) + (availability.isEnabled(spec.name) ? "enabled" : "disabled")
            if let intervals = availability.preferredIntervals(spec.name) {
                line += "  " + intervals.map { "\(JSONValue.number($0).serialized)s" }.joined(separator: ", ")
            }
            return line + "\n"
        }.joined()
    }

    static func enqueued(_ outcome: EnqueueOutcome) -> String {
        let added = outcome.added.count
        return "added \(added) item\(added == 1 ? "" : "s"), queue has \(outcome.queueCount ?? 0)\n"
    }

    /// One line per item an `enqueue` turned away (printed on stderr).
    public static func rejections(_ outcome: EnqueueOutcome) -> String {
        outcome.rejected.map { "rejected \($0.path): \($0.reason)\n" }.joined()
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
