extension DesktopNotification {
    /// The notification for a manifest edit that cannot be used; the agent keeps the last good
    /// manifest meanwhile. The wording, exactly: summary "The manifest has a problem"; body the
    /// first three errors as `file:line:column: message`, then "and N more" if there are more,
    /// then "syncagent goes on with the last good version." (or, with none, "syncagent waits
    /// for a valid one."); urgency critical (nothing changes until the user edits it), icon
    /// "syncagent-warning", topic ``Topic/manifestProblem`` (withdrawn once the manifest is valid
    /// again); with `manifestPath`, "Edit manifest" opens it in the default editor.
    public static func invalidManifest(_ problem: InvalidManifest, keepsPreviousVersion: Bool, manifestPath: String? = nil) -> DesktopNotification {
        var lines = problem.errors.prefix(3).map(\.description)
        if problem.errors.count > 3 { lines.append("and \(problem.errors.count - 3) more") }
        lines.append(keepsPreviousVersion ? "syncagent goes on with the last good version." : "syncagent waits for a valid one.")
        return DesktopNotification(
            summary: "The manifest has a problem",
            body: lines.joined(separator: "\n"),
            urgency: .critical,
            iconName: "syncagent-warning",
            topic: .manifestProblem,
            actions: manifestPath.map { [.editManifest($0)] } ?? [],
            soundName: "dialog-warning"
        )
    }
}
