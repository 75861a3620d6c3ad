/// The decoder thread's work: decode the current item into the ring, then each upcoming item
/// of the same format, so item boundaries are sample-exact. It blocks only when the ring (or
/// the segment log) is full, and is woken by the output thread or a halt.
struct DecoderLoop {
    let ring: SampleRing
    let segments: SegmentLog
    let upcoming: UpcomingItems
    let state: PipelineState
    let openDecoder: AudioDecoderFactory
    let outputWake: EventSignal
    let decoderWake: EventSignal
    let scratch: UnsafeMutableBufferPointer<Int16>

    func run(first decoder: any AudioDecoder) {
        var decoder = decoder
        while !state.isHaltRequested {
            guard let count = try? decoder.read(into: scratch), count > 0 else {
                guard let next = nextDecoder(format: decoder.format) else { return }
                decoder = next
                continue
            }
            guard push(UnsafeBufferPointer(rebasing: scratch[..<count])) else { return }
        }
    }

    /// Opens the next upcoming item; nil at the end of the queue, on a format change or a halt.
    private func nextDecoder(format: AudioFormat) -> (any AudioDecoder)? {
        while let item = upcoming.next() {
            guard let decoder = try? openDecoder(item.path) else {
                state.skippedItems.add(1, ordering: .relaxed)
                continue
            }
            guard decoder.format == format else {
                state.formatChangeItem.store(item.id, ordering: .relaxed)
                finish(.formatChange)
                return nil
            }
            while !segments.hasRoom {
                guard waitForOutput() else { return nil }
            }
            segments.append(.init(itemID: item.id, startSample: ring.totalWritten, firstFrame: 0))
            return decoder
        }
        finish(.endOfQueue)
        return nil
    }

    private func finish(_ end: PipelineState.DecoderEnd) {
        state.decoderEnd.store(end.rawValue, ordering: .releasing)
        outputWake.signal()
    }

    /// Writes all of `samples`, waiting for room; false when halted meanwhile.
    private func push(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        var offset = 0
        while offset < samples.count {
            let written = ring.write(UnsafeBufferPointer(rebasing: samples[offset...]))
            offset += written
            if written > 0 {
                if state.outputWaitingForData.exchange(false, ordering: .acquiringAndReleasing) {
                    outputWake.signal()
                }
            } else if !waitForOutput() {
                return false
            }
        }
        return true
    }

    /// Sleeps until the output thread frees space; false when halted.
    private func waitForOutput() -> Bool {
        state.decoderWaitingForSpace.store(true, ordering: .sequentiallyConsistent)
        if ring.writableCount == 0 || !segments.hasRoom, !state.isHaltRequested {
            decoderWake.wait()
        }
        state.decoderWaitingForSpace.store(false, ordering: .relaxed)
        return !state.isHaltRequested
    }
}
