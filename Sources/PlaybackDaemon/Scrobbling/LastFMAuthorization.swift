import ControlProtocol
import PlaybackModel

/// Last.fm's desktop authorisation: `auth.getToken`, the user allows playbackd at the page
/// that names the token, then `auth.getSession` gives the session key, kept in a file of the
/// state directory (mode 0600) and never shown.
struct LastFMAuthorization {
    let signer: LastFMSigner
    /// The page where the user allows an application (`lastfm-auth-url`).
    let page: String
    /// Where the session key is kept.
    let sessionPath: String

    /// The first step: a token, and the address where the user allows it.
    func begin(_ exchange: HTTPExchange) -> Result<ScrobbleLogin, CommandFailure> {
        switch call(exchange, signer.request("auth.getToken", [])) {
        case .failure(let failure): return .failure(failure)
        case .success(let json):
            guard let token = json["token"]?.stringValue, !token.isEmpty else {
                return .failure(CommandFailure(.commandFailed, "Last.fm's answer held no token"))
            }
            let url = page + "?api_key=" + FormEncoding.escape(signer.apiKey) + "&token=" + FormEncoding.escape(token)
            return .success(ScrobbleLogin(url: url, token: token, authorised: false))
        }
    }

    /// The next step: whether `token` was allowed; when it was, the session key is kept.
    func complete(_ token: String, _ exchange: HTTPExchange) -> Result<ScrobbleLogin, CommandFailure> {
        switch call(exchange, signer.request("auth.getSession", [("token", token)])) {
        case .failure(let failure):
            // 14: "This token has not been authorized" (yet).
            if failure.message.hasPrefix("Last.fm: error 14") {
                return .success(ScrobbleLogin(url: nil, token: token, authorised: false))
            }
            return .failure(failure)
        case .success(let json):
            guard let key = json["session"]?["key"]?.stringValue, !key.isEmpty else {
                return .failure(CommandFailure(.commandFailed, "Last.fm's answer held no session"))
            }
            if let problem = SecretFile.write(key, to: sessionPath) {
                return .failure(CommandFailure(.commandFailed, "the session cannot be kept: \(problem)"))
            }
            return .success(ScrobbleLogin(url: nil, token: nil, authorised: true))
        }
    }

    /// Makes a call; its JSON, or why there is none.
    private func call(_ exchange: HTTPExchange, _ request: HTTPExchange.Request) -> Result<JSONValue, CommandFailure> {
        switch exchange.perform(request) {
        case .failure(let failure):
            return .failure(CommandFailure(.commandFailed, "Last.fm cannot be reached: \(failure)"))
        case .success(let reply):
            let json = try? JSONParser.parse(reply.body)
            if let code = json?["error"]?.numberValue {
                let message = json?["message"]?.stringValue.map { ": \($0)" } ?? ""
                return .failure(CommandFailure(.commandFailed, "Last.fm: error \(Int(code))\(message)"))
            }
            guard (200..<300).contains(reply.status), let json else {
                return .failure(CommandFailure(.commandFailed, "Last.fm answered HTTP \(reply.status)"))
            }
            return .success(json)
        }
    }
}
