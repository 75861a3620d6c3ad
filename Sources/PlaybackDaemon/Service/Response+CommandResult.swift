import ControlProtocol
import PlaybackModel

/// The socket front end's half of a command: its domain result as a JSON reply.
extension Response {
    init(_ result: CommandResult) {
        switch result {
        case .success(let outcome):
            self.init(status: .success, fields: outcome.fields)
        case .failure(let failure):
            self.init(status: failure.status, message: failure.message, fields: failure.outcome?.fields ?? [])
        }
    }
}
