import PlaybackModel
import Testing

/// AutoEq's parametric EQ text: read as Equalizer APO and AutoEq write it, written so that it
/// reads back the same.
@Suite struct ParametricEQTextTests {
    @Test("AutoEq's lines read as their filters; widths as Q or octaves; comments and blank lines pass")
    func readsAutoEq() throws {
        let equalizer = try ParametricEQText.parse(
            """
            # from AutoEq\r
            Preamp: -6.2 dB\r

            Filter 1: ON PK Fc 105 Hz Gain -2.3 dB Q 0.70
            Filter 2: ON LSC Fc 105 Hz Gain 5.5 dB Q 0.71
            Filter 3: ON HSC Fc 10000 Hz Gain -1.0 dB
            Filter 4: OFF PK Fc 2000 Hz Gain 3 dB BW Oct 0.5
            Filter: ON LP Fc 18000 Hz
            Filter 6: ON HPQ Fc 20 Hz Q 0.5
            Filter 7: ON NO Fc 60 Hz Q 10
            """)
        #expect(equalizer.isEnabled && equalizer.preamp == -6.2 && equalizer.globalGain == 0)
        #expect(
            equalizer.bands == [
                EQBand(type: .parametric, frequency: 105, q: 0.7, gain: -2.3),
                EQBand(type: .resonantLowShelf, frequency: 105, q: 0.71, gain: 5.5),
                EQBand(type: .highShelf, frequency: 10_000, gain: -1),
                EQBand(type: .parametric, frequency: 2000, bandwidth: 0.5, gain: 3, bypass: true),
                EQBand(type: .lowPass, frequency: 18_000),
                EQBand(type: .resonantHighPass, frequency: 20, q: 0.5),
                EQBand(type: .bandStop, frequency: 60, q: 10),
            ])
    }

    @Test("every filter type written reads back the same; the global gain joins the preamp")
    func roundTrips() throws {
        let bands = EQFilterType.ordered.enumerated().map { index, type in
            EQBand(
                type: type, frequency: 50 * Double(index + 1), bandwidth: 0.25 * Double(index + 1),
                q: index % 2 == 0 ? nil : 0.5 + Double(index), gain: type.usesGain ? Double(index) - 5.5 : 0,
                bypass: index == 3)
        }
        let equalizer = Equalizer(isEnabled: true, bands: bands, globalGain: -2, preamp: -1.25)
        let read = try ParametricEQText.parse(ParametricEQText.format(equalizer))
        #expect(read.preamp == -3.25 && read.globalGain == 0)
        for (written, back) in zip(equalizer.bands, read.bands) {
            #expect(back.type == written.type, "\(written)")
            #expect(back.frequency == written.frequency && back.gain == written.gain && back.bypass == written.bypass)
            // Shelves and plain passes have no width on iOS, so none is written.
            if ![.lowShelf, .highShelf, .lowPass, .highPass].contains(written.type) {
                #expect(back.q == written.q && (written.q != nil || back.bandwidth == written.bandwidth), "\(written)")
            }
        }
    }

    @Test("more filters than the equalizer holds is an error on the first one too many")
    func tooManyFilters() {
        let text = (1...17).map { "Filter \($0): ON PK Fc \($0 * 100) Hz Gain 1 dB Q 1" }.joined(separator: "\n")
        #expect(throws: ParametricEQError(line: 17, "more than 16 filters")) { try ParametricEQText.parse(text) }
        #expect(throws: ParametricEQError(line: 2, "a second Preamp line")) {
            try ParametricEQText.parse("Preamp: 1 dB\nPreamp: 2 dB")
        }
    }
}
