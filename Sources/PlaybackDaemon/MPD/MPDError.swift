/// An error as MPD's protocol reports it: `ACK [code@index] {command} message`.
struct MPDError: Error, Equatable {
    /// MPD's `enum ack` (src/protocol/Ack.hxx).
    enum Code: Int {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The line, for the command at `index` of a command list (0 outside one).
    func line(command: String, index: Int) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(message)\n"
    }
}
