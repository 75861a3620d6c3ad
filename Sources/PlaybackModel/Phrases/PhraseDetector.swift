#if canImport(Glibc)
    import Glibc
#endif

/// Cuts an item into phrases from its level over short windows (`PhraseParameters.windowSeconds`):
///
/// 1. The item's own speech level is the 90th percentile of its window levels, its floor the
///    10th; a window is speech when it is louder than the speech level less `threshold` dB
///    (and at least 6 dB over the floor, so steady background noise is silence). Quiet and loud
///    recordings of the same speech are cut alike. Under -80 dBFS nothing is speech.
/// 2. Speech separated by a silence shorter than `minimumSilence` is one stretch; lone clicks
///    (under 50 ms) are not speech.
/// 3. A stretch shorter than `minimumPhrase` joins the neighbour across the shorter pause (a
///    breath does not cut a sentence; a short sentence long enough stays its own).
/// 4. A stretch longer than `maximumPhrase` is split where its level over 100 ms is lowest.
/// 5. Each phrase keeps `padding` seconds of the silence at both ends (the last one too), or
///    half the pause when the pause is shorter than two paddings.
public struct PhraseDetector: Sendable {
    public var parameters: PhraseParameters
    /// The length of one window of levels, seconds.
    public var window: Double

    public init(_ parameters: PhraseParameters, windowSeconds: Double = PhraseParameters.windowSeconds) {
        self.parameters = parameters
        window = windowSeconds
    }

    /// The level that stands for digital silence, dB.
    static let silenceFloor: Float = -120
    /// Quieter windows are no sound at all, whatever the item's own level: 16-bit dither
    /// (about -98 dBFS) is not speech.
    static let soundFloor: Float = -80

    /// The phrases among `windows` of `meanSquares` (one mean square per window; samples
    /// from -1 to 1), in an item `duration` seconds long.
    public func phrases(meanSquares: [Float], windows: Range<Int>, duration: Double) -> [Phrase] {
        let levels = windows.map { index in max(Self.silenceFloor, 10 * log10f(meanSquares[index])) }
        guard let threshold = threshold(levels) else { return [] }
        let offset = windows.lowerBound
        var spans = speech(levels, above: threshold).map { ($0.lowerBound + offset, $0.upperBound + offset) }
        spans = joinShort(spans)
        spans = splitLong(spans, levels: levels, offset: windows.lowerBound)
        return padded(spans, duration: duration)
    }

    private func windows(_ seconds: Double) -> Int { Int((seconds / window).rounded()) }

    /// The level under which a window is silence; nil when there is no sound at all.
    private func threshold(_ levels: [Float]) -> Float? {
        let sounding = levels.filter { $0 > Self.soundFloor }.sorted()
        guard sounding.count >= windows(0.05) else { return nil }
        let all = levels.sorted()
        let speech = sounding[sounding.count * 9 / 10]
        let floor = all[all.count / 10]
        let relative = speech - Float(parameters.threshold)
        return max(Self.soundFloor, min(max(relative, floor + 6), speech - 6))
    }

    /// Runs of speech windows, joined across silences shorter than the minimum.
    private func speech(_ levels: [Float], above threshold: Float) -> [Range<Int>] {
        let shortestSilence = max(1, windows(parameters.minimumSilence))
        let shortestSound = windows(0.05)
        var runs: [Range<Int>] = []
        var index = 0
        while index < levels.count {
            guard levels[index] > threshold else {
                index += 1
                continue
            }
            var end = index
            while end < levels.count && levels[end] > threshold { end += 1 }
            if let last = runs.last, index - last.upperBound < shortestSilence {
                runs[runs.count - 1] = last.lowerBound..<end
            } else {
                runs.append(index..<end)
            }
            index = end
        }
        return runs.filter { $0.count >= shortestSound }
    }

    /// Joins each stretch shorter than the minimum phrase to its neighbour across the shorter
    /// pause, shortest first.
    private func joinShort(_ spans: [(Int, Int)]) -> [(Int, Int)] {
        var spans = spans
        let shortest = windows(parameters.minimumPhrase)
        while spans.count > 1 {
            guard
                let index = spans.indices.filter({ spans[$0].1 - spans[$0].0 < shortest })
                    .min(by: { spans[$0].1 - spans[$0].0 < spans[$1].1 - spans[$1].0 })
            else { break }
            let before = index > 0 ? spans[index].0 - spans[index - 1].1 : Int.max
            let after = index + 1 < spans.count ? spans[index + 1].0 - spans[index].1 : Int.max
            let other = before <= after ? index - 1 : index + 1
            let (first, second) = (min(index, other), max(index, other))
            spans[first] = (spans[first].0, spans[second].1)
            spans.remove(at: second)
        }
        return spans
    }

    /// Splits each stretch longer than the maximum where its level over 100 ms is lowest, at
    /// least a minimum phrase from either end, until none is longer.
    private func splitLong(_ spans: [(Int, Int)], levels: [Float], offset: Int) -> [(Int, Int)] {
        let longest = max(2, windows(parameters.maximumPhrase))
        let margin = min(windows(parameters.minimumPhrase), longest / 2 - 1)
        let width = windows(0.1)
        var result: [(Int, Int)] = []
        var pending = Array(spans.reversed())
        while let span = pending.popLast() {
            guard span.1 - span.0 > longest else {
                result.append(span)
                continue
            }
            var best = span.0 + (span.1 - span.0) / 2
            var lowest = Float.infinity
            var candidate = span.0 + max(1, margin)
            while candidate < span.1 - max(1, margin) {
                let from = max(span.0, candidate - width / 2) - offset
                let to = min(span.1, candidate + width / 2) - offset
                var sum: Float = 0
                for index in from..<to { sum += levels[index] }
                let level = sum / Float(max(1, to - from))
                if level < lowest { (lowest, best) = (level, candidate) }
                candidate += 1
            }
            pending.append((best, span.1))
            pending.append((span.0, best))
        }
        return result
    }

    /// Seconds, with the padding: never past the item, and meeting halfway when the pause is
    /// shorter than two paddings.
    private func padded(_ spans: [(Int, Int)], duration: Double) -> [Phrase] {
        let padding = parameters.padding
        return spans.indices.map { index in
            let (from, to) = (Double(spans[index].0) * window, Double(spans[index].1) * window)
            var start = max(0, from - padding)
            var end = min(duration, to + padding)
            if index > 0 {
                let previous = Double(spans[index - 1].1) * window
                start = max(start, (previous + from) / 2)
            }
            if index + 1 < spans.count {
                let next = Double(spans[index + 1].0) * window
                end = min(end, (to + next) / 2)
            }
            return Phrase(start: start, end: max(start, end))
        }
    }
}
