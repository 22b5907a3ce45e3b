import ArgumentParser

/// The shell completion scripts, as swift-argument-parser writes them, with the one thing it
/// leaves out: after `help`, the commands (`syncagent help pa<TAB>` → `pause`). Its own
/// `help` command is internal to it and declares no completion for its arguments, so the
/// lines are added to the script it generates, each in its shell's own form.
enum CompletionScript {
    /// The script for `shell`, or `nil` for a shell swift-argument-parser does not know.
    static func script(for shellName: String, commands: [String]) -> String? {
        guard let shell = CompletionShell(rawValue: shellName) else { return nil }
        return completingHelp(SyncAgent.completionScript(for: shell), shell: shell, commands: commands)
    }

    /// `script` with the commands completed after `help`; unchanged if the generated script
    /// does not have the shape this expects (a newer swift-argument-parser may do it itself).
    static func completingHelp(_ script: String, shell: CompletionShell, commands: [String]) -> String {
        let words = commands.joined(separator: " ")
        switch shell {
        case .bash:
            let marker = "_syncagent_help() {\n"
            guard let start = script.firstRange(of: marker), let end = script[start.upperBound...].firstRange(of: "\n}\n") else {
                return script
            }
            var patched = script
            patched.insert(contentsOf: "\n    COMPREPLY+=($(compgen -W '\(words)' -- \"${cur}\"))", at: end.lowerBound)
            return patched
        case .zsh:
            return script.replacingFirst("'*:subcommands:'", with: "'*:subcommands:(\(words))'")
        case .fish:
            let separated = script.hasSuffix("\n") ? script : script + "\n"
            return separated + "complete -c 'syncagent' -n '__fish_seen_subcommand_from help' -fa '\(words)'\n"
        default:
            return script
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var replaced = self
        replaced.replaceSubrange(range, with: replacement)
        return replaced
    }
}
