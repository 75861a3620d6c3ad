import ControlProtocol
import PlaybackModel

/// The socket front end's half of a command: its domain result as a JSON reply.
extension Response {
    /// The reply to `result`; a snapshot is taken from `snapshots` as serialized last when it
    /// is the same.
    init(_ result: CommandResult, snapshots: SnapshotEncoding) {
        switch result {
        case .success(.nowPlaying(let snapshot)):
            self.init(status: .success, fields: [("nowPlaying", snapshots.json(snapshot))])
        case .success(let outcome):
            self.init(status: .success, fields: outcome.fields)
        case .failure(let failure):
            self.init(status: failure.status, message: failure.message, fields: failure.outcome?.fields ?? [])
        }
    }
}
