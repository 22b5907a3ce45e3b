/// What to say about a word given where a command goes that names none: the command the
/// person probably meant ("paus" → "pause"), as the manifest's unknown keys and
/// swift-argument-parser's unknown options already get.
public enum CommandSuggestion {
    /// The message for `word`, not one of `commands`: "Unknown command 'paus'. Did you mean
    /// 'pause'?", or the list of commands when none is close.
    public static func message(for word: String, commands: [String]) -> String {
        let shown = ProgressText.sanitized(word)
        if let closest = closest(to: word, among: commands) {
            return "Unknown command '\(shown)'. Did you mean '\(closest)'?"
        }
        return "Unknown command '\(shown)'. The commands are: \(commands.joined(separator: ", "))."
    }

    /// The command closest to `word`, if it is close enough to be a likely typo (the same
    /// edit distance the manifest's key suggestions use), or if `word` starts exactly one.
    public static func closest(to word: String, among commands: [String]) -> String? {
        if let typo = KeySuggestion.closest(to: word, among: commands) { return typo }
        let starting = commands.filter { !word.isEmpty && $0.hasPrefix(word.lowercased()) }
        return starting.count == 1 ? starting[0] : nil
    }
}
