import Testing

@testable import PlaybackEngine

@Suite struct ALSASinkTests {
    /// The period the sink opened `device` with, in seconds of 44.1 kHz stereo.
    private func periodSeconds(_ device: String) throws -> Double {
        let sink = ALSASink(deviceName: device)
        try sink.open(AudioFormat(sampleRate: 44_100, channels: 2))
        defer { sink.close() }
        return Double(sink.periodFrames) / 44_100
    }

    @Test(
        "a file over the null PCM gets the short buffer, alone and behind a plug; a plug over null alone keeps the long one"
    )
    func fileDevicesGetTheShortBuffer() throws {
        let short = Double(ALSASink.filePeriodMicroseconds) / 1e6
        let long = Double(ALSASink.periodMicroseconds) / 1e6
        #expect(abs(try periodSeconds("playbackd_file_to_null") - short) < 0.005)
        #expect(abs(try periodSeconds("playbackd_plug_file_to_null") - short) < 0.005, "behind a plug")
        #expect(abs(try periodSeconds("playbackd_plug_null") - long) < 0.02, "no file: a device that plays")
    }
}
