/// ID3v1's numbered genres, which ID3v2.3 `TCON` frames refer to as `(13)` or `13`.
enum ID3Genres {
    static let names = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "AlternRock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave",
        "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka",
        "Retro", "Musical", "Rock & Roll", "Hard Rock",
    ]

    static func name(_ number: Int) -> String? { names.indices.contains(number) ? names[number] : nil }

    /// `(13)` or `13` → `Pop`; `(13)Britpop` → `Britpop`; `(RX)` → `Remix`; other text as it is.
    static func resolve(_ text: String) -> String? {
        var rest = Substring(text)
        var referenced: String?
        while rest.first == "(", let close = rest.firstIndex(of: ")") {
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            if let number = Int(inner) { referenced = referenced ?? name(number) }
            if inner == "RX" { referenced = referenced ?? "Remix" }
            if inner == "CR" { referenced = referenced ?? "Cover" }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { return Int(rest).flatMap(name) ?? String(rest) }
        return referenced
    }
}
