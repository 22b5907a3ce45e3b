/// A `pause`, `resume`, `stop` or `start` of some files, feeds or episodes, and the words
/// that say it was done: by the running agent now, or recorded in the saved state for when it
/// starts.
struct HoldChange {
    let command: ControlRequest.Command
    let targets: HoldTargets
    /// Whether the user named no title, and so every file and feed.
    let all: Bool

    /// What the running agent says it did: "paused 2 files: A, B (partial downloads are
    /// kept)", "starting all 6 files".
    var doneNow: String {
        switch command {
        case .pause: summary("paused", note: "partial downloads are kept")
        case .stop: summary("stopped", note: "partial downloads are deleted")
        case .resume: summary("resumed")
        default: summary("starting")
        }
    }

    /// What a command says when no agent runs and the change was recorded in the saved state.
    var recorded: String {
        let verb = switch command {
        case .pause: "marked paused"
        case .stop: "marked stopped"
        default: "released"
        }
        return "the agent is not running; \(summary(verb)) in the saved state, which the agent follows when it "
            + "starts (`syncagent`, or at every login: `syncagent install`)"
    }

    /// "paused 2 files: A, B" / "paused all 6 files and 1 feed", with the note when some
    /// were named (an episode counts as a file).
    private func summary(_ verb: String, note: String? = nil) -> String {
        let files = targets.files.count + targets.episodes.count
        let feeds = targets.feeds.count
        var counts: [String] = []
        if files > 0 || feeds == 0 { counts.append(counted(files, "file")) }
        if feeds > 0 { counts.append(counted(feeds, "feed")) }
        let count = counts.joined(separator: " and ")
        let titles = targets.titles
        var text = all ? "\(verb) all \(count)" : "\(verb) \(count): " + titles.joined(separator: ", ")
        if let note, !titles.isEmpty { text += " (\(note))" }
        return text
    }
}
