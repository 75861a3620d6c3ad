/// What a decoder has converted and not yet handed out: the rest of the last frame it decoded.
struct PendingSamples<Sample: PCMSample> {
    /// The last frame's samples, from `taken` on not yet handed out.
    private var samples: [Sample] = []
    private var taken = 0

    /// Copies pending samples into `buffer`; whenever they run out, `decodeMore` fills the
    /// emptied array with the next frame's (it may leave it empty) or returns false at the end.
    /// Returns how many samples `buffer` got.
    mutating func fill(
        _ buffer: UnsafeMutableBufferPointer<Sample>, decodeMore: (inout [Sample]) throws(DecoderError) -> Bool
    ) throws(DecoderError) -> Int {
        var done = 0
        while done < buffer.count {
            if taken < samples.count {
                let chunk = min(buffer.count - done, samples.count - taken)
                samples.withUnsafeBufferPointer {
                    (buffer.baseAddress! + done).update(from: $0.baseAddress! + taken, count: chunk)
                }
                taken += chunk
                done += chunk
                continue
            }
            clear()
            guard try decodeMore(&samples) else { break }
        }
        return done
    }

    /// Drops what is pending (a seek).
    mutating func clear() {
        samples.removeAll(keepingCapacity: true)
        taken = 0
    }
}
