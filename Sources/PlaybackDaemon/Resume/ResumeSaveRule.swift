/// When resume saves: when the state it would write differs from the one it wrote last
/// (STYLE.md 24), whatever the change that led there. No list of change bits decides it, so a
/// field added to `ResumeState` later is saved without anyone naming it.
///
/// The comparison is cheap at any queue length: the items are compared by their version (equal
/// versions have equal items), everything else by value (an unchanged shuffle order is the same
/// array, which compares in constant time). The position is compared with where the last one
/// was heading: playing on is no change (the periodic save keeps up with it), a seek, a pause
/// or another item is.
struct ResumeSaveRule {
    /// How far the position may stray from where the last save's was heading and still be the
    /// same: less than a drifting anchor is corrected by, more than a clock's rounding.
    static let positionTolerance = 0.1

    /// The state written last, without its items, when it was written (seconds since the
    /// epoch), and the rate its position advanced at then (0 unless playing).
    private var last: (state: ResumeState, time: Double, rate: Double)?

    /// Whether `state`, taken at `time`, differs from what was written last (always, before
    /// the first write).
    func differs(_ state: ResumeState, at time: Double) -> Bool {
        guard let last else { return true }
        var expected = last.state
        expected.position += last.rate * (time - last.time)
        var candidate = Self.withoutItems(state)
        guard abs(candidate.position - expected.position) <= Self.positionTolerance else { return true }
        candidate.position = expected.position
        return candidate != expected
    }

    /// Records that `state`, taken at `time`, was handed over to be written, its position
    /// advancing at `rate` item seconds a second.
    mutating func wrote(_ state: ResumeState, at time: Double, rate: Double) {
        last = (Self.withoutItems(state), time, rate)
    }

    /// Forgets what was written: the next state differs whatever it is.
    mutating func forget() { last = nil }

    /// `state` with its items left out: `itemsVersion` stands for them, and keeping them would
    /// keep a replaced queue's items alive.
    private static func withoutItems(_ state: ResumeState) -> ResumeState {
        var state = state
        state.items = []
        return state
    }
}
