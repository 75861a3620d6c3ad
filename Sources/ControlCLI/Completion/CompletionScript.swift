/// `playbackctl --generate-completion-script SHELL`.
public enum CompletionScript {
    /// The script for `shell` (one of `CLIOptions.shells`).
    public static func script(for shell: String) -> String {
        let model = CompletionModel()
        switch shell {
        case "zsh": return ZshCompletion.script(model)
        case "fish": return FishCompletion.script(model)
        default: return BashCompletion.script(model)
        }
    }
}
