import PlaybackModel

/// How much of the current item has been heard, counted in positions of the item, never in
/// wall time: a hearing is a sum of runs, each from where a pipeline (or a pass of one) began
/// to where it was heard last. A seek skips what it jumps over, a pause stops the count, and at
/// rate 2 a minute of the item is a minute heard.
///
/// A hearing begins when its item becomes audible and ends (a `HeardItem`) when the item is
/// finished, left for another, stopped, removed or replaced; each pass of repeat-one is a
/// hearing of its own. A pause, a seek, a restart in place or a failed device close the run
/// only; the next pipeline opens another. A hearing becomes a listen (`ListenRule`) the moment
/// its seconds reach what the rule needs, once; heard in practice (phrase mode, an A-B loop) it
/// never does. What it saw waits in `events` for the service.
///
/// A live stream has no length, so it is never a listen; with `countsStreamTitles`
/// (`scrobble-streams`) each title it announces as "Artist - Title" is one once 30 s of it are
/// heard, dated when the title began. The stream's own hearing stays no listen.
struct Hearing: Equatable {
    /// Which pass of which pipeline a run belongs to (`EnginePosition.segment`).
    struct Pass: Equatable {
        var pipeline: Int
        var segment: Int
    }

    /// A live stream's title being heard: when it began (nil until the stream is audible) and
    /// the stream's seconds heard by then.
    struct TitleRun: Equatable {
        var began: Double?
        var from: Double
    }

    /// The hearing under way.
    struct Current: Equatable {
        var item: QueueItem
        /// When it became audible; nil while its first pipeline has not been heard.
        var began: Double?
        /// The seconds of the runs closed so far.
        var seconds: Double = 0
        /// Where the run under way began in the item; nil while none runs.
        var runFrom: Double?
        /// The pass the run under way plays.
        var pass: Pass?
        /// It counted as a listen (`listens`).
        var isListen = false
        /// Part of it was heard in phrase mode or an A-B loop.
        var isPractice = false
        /// The title under way of a live stream whose titles count; `isListen` is then its.
        var title: TitleRun?

        /// The seconds heard, with the run under way heard up to `seconds` into the item.
        func heard(upTo seconds: Double?) -> Double {
            guard let runFrom, let seconds else { return self.seconds }
            return self.seconds + max(0, seconds - runFrom)
        }

        /// The seconds it needs to count as a listen (a stream's title: the stream's seconds
        /// heard when it began and its 30 s); nil when it cannot count (any more).
        var secondsToListen: Double? {
            guard !isListen, !isPractice, began != nil else { return nil }
            if let title { return title.from + ListenRule.shortestItem }
            return ListenRule.secondsNeeded(duration: item.metadata.duration)
        }

        /// Where in the item the run under way makes it a listen; nil without a run, or when
        /// it cannot count.
        var listenPosition: Double? {
            guard let runFrom, let needed = secondsToListen else { return nil }
            return runFrom + needed - seconds
        }
    }

    private(set) var current: Current?
    private(set) var events: [PlayerEvent] = []
    /// Whether a live stream's titles count as listens (`scrobble-streams`).
    var countsStreamTitles = false

    /// The pipeline `pipeline` plays `item` from `seconds` into it: a run of the hearing under
    /// way when it is of that item, else a new hearing, audible once `audible` says so. A
    /// pipeline paused in place that goes on (`resumed`) plays the same pass: its segments are
    /// numbered on (a fresh pipeline's from 0), so a resume is not a new pass of repeat-one.
    mutating func runs(_ item: QueueItem, from seconds: Double, pipeline: Int, resumed: Bool = false) {
        if current?.item.id != item.id {
            current = Current(item: item)
            if countsTitle(of: item) { current?.title = TitleRun(began: nil, from: 0) }
        }
        current?.runFrom = seconds
        let segment = resumed ? current?.pass?.segment ?? 0 : 0
        current?.pass = Pass(pipeline: pipeline, segment: segment)
    }

    /// The hearing under way, if it was not audible yet, became audible at `began`.
    mutating func audible(at began: Double) {
        guard let under = current, under.began == nil, under.runFrom != nil else { return }
        current?.began = began
        if under.title != nil { current?.title?.began = began }
        events.append(.itemAudible(item: under.item, began: began))
    }

    /// Heard up to `seconds` into the item: the hearing under way counts as a listen now if its
    /// seconds reach the rule's.
    mutating func listens(upTo seconds: Double) {
        guard let under = current, let needed = under.secondsToListen, let began = under.began,
            under.heard(upTo: seconds) >= needed - ListenRule.tolerance
        else { return }
        current?.isListen = true
        events.append(.listened(item: under.item, began: under.title?.began ?? began))
    }

    /// The live stream heard announced a new title (`item` carries it), heard up to `seconds`
    /// into the stream at `now`: the title before is over (a listen if 30 s of it were heard),
    /// and this one begins when it counts ("Artist - Title").
    mutating func retitles(_ item: QueueItem, upTo seconds: Double?, now: Double) {
        guard let under = current, under.item.id == item.id, !item.metadata.isSeekable else { return }
        if under.title != nil { listens(upTo: seconds ?? under.runFrom ?? 0) }
        current?.item = item
        current?.isListen = false
        let title =
            countsTitle(of: item)
            ? TitleRun(began: under.began == nil ? nil : now, from: under.heard(upTo: seconds)) : nil
        current?.title = title
    }

    /// Whether `item` is a live stream whose title counts: on, and "Artist - Title".
    private func countsTitle(of item: QueueItem) -> Bool {
        countsStreamTitles && !item.metadata.isSeekable && item.metadata.artist?.isEmpty == false
            && !item.metadata.title.isEmpty
    }

    /// The hearing under way is heard in practice (phrase mode, an A-B loop): never a listen.
    mutating func practises() {
        guard current != nil, current?.isListen == false else { return }
        current?.isPractice = true
    }

    /// The run under way stops, heard up to `seconds` into the item.
    mutating func stops(at seconds: Double) {
        guard let from = current?.runFrom else { return }
        current?.seconds += max(0, seconds - from)
        current?.runFrom = nil
    }

    /// The hearing of `item`, when it is the one under way, ends `how`, heard up to `seconds`.
    /// One that never became audible ends unsaid.
    mutating func ends(_ item: QueueItem, at seconds: Double, _ how: HeardItem.Ending) {
        guard current?.item.id == item.id else { return }
        listens(upTo: seconds)
        stops(at: seconds)
        if let under = current, let began = under.began {
            events.append(
                .itemHeard(
                    HeardItem(
                        item: item, began: began, seconds: under.seconds, ending: how,
                        isListen: under.isListen && under.title == nil, isPractice: under.isPractice)))
        }
        current = nil
    }

    /// A new pass of the running pipeline is heard: `item` from `seconds`, audible since
    /// `began`. The hearing under way, if any, was finished (its last frame heard).
    mutating func passes(to item: QueueItem, from seconds: Double, pass: Pass, began: Double) {
        if let finished = current?.item { ends(finished, at: finished.metadata.duration, .finished) }
        current = Current(item: item, began: began, runFrom: seconds, pass: pass)
        events.append(.itemAudible(item: item, began: began))
    }

    /// A new pass of the same hearing (an A-B loop's): the run ends at `end` and the next
    /// begins at `start`.
    mutating func loops(from end: Double, to start: Double, pass: Pass) {
        stops(at: end)
        current?.runFrom = start
        current?.pass = pass
    }

    /// A new pass of the same run (a phrase repeated): the run goes on.
    mutating func continues(_ pass: Pass) { current?.pass = pass }

    /// The events since the last time, handed over.
    mutating func take() -> [PlayerEvent] {
        defer { events = [] }
        return events
    }
}
