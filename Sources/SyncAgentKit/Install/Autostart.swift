import FoundationEssentials
import Glibc

/// Sets up and removes the start of syncagent at login, for the current user: a systemd
/// user unit where a systemd user instance answers, an XDG autostart entry otherwise.
///
/// Everything it depends on comes in as values — the folders, the executable, a way to run
/// `systemctl --user` — so it is tested against a temporary folder and a recording
/// `systemctl`. Both operations are idempotent and return what they did, for the user.
///
/// A file install wrote carries a checksum of itself (``AutostartFiles/stamped(_:)``):
/// install replaces such a file while the checksum matches, and refuses to replace one that
/// was edited (or that it did not write) unless forced. Uninstall removes only such files; it
/// disables an edited unit but leaves the file, and says so.
///
/// Where `systemctl` is installed but no user manager answers (su, SSH without pam_systemd,
/// a container), install writes the unit and enables it by hand — the link `systemctl enable`
/// makes — so a later systemd session starts it, and the XDG autostart entry for sessions
/// without systemd (its `X-systemd-skip` keeps the two from both starting it). It says that
/// nothing was started now, and warns when nothing at all may start it.
public struct Autostart: Sendable {
    /// Whether `systemctl --user` can talk to a systemd user instance.
    public enum SystemdUserInstance: Equatable, Sendable {
        /// A manager answers: install uses the unit.
        case reachable
        /// Why not, for the user: "systemctl is not installed", what systemctl said, ….
        case unreachable(reason: String)
    }

    /// The user's home folder; paths under it are shown as `~/…`.
    public let home: String
    /// `$XDG_CONFIG_HOME`, under which both files live.
    public let configHome: String
    /// The absolute path of the syncagent that the files start.
    public let executable: String
    /// `nil` when systemctl is not installed.
    public let systemctl: AutostartSystemctl?
    /// `$XDG_CURRENT_DESKTOP`: the desktop session that reads XDG autostart entries; `nil`
    /// when the session names none (a bare window manager, a console).
    public let currentDesktop: String?

    /// Autostart for the user whose folders `directories` are, starting `executable`, in a
    /// session on `currentDesktop`.
    public init(directories: XDGDirectories, executable: String, systemctl: AutostartSystemctl?, currentDesktop: String?) {
        home = directories.home
        configHome = directories.configHome
        self.executable = executable
        self.systemctl = systemctl
        self.currentDesktop = currentDesktop
    }

    /// `$XDG_CONFIG_HOME/systemd/user/syncagent.service`.
    public var unitPath: String { configHome + "/systemd/user/" + AutostartFiles.unitName }
    /// `$XDG_CONFIG_HOME/autostart/syncagent.desktop`.
    public var desktopEntryPath: String { configHome + "/autostart/" + AutostartFiles.desktopEntryName }
    /// The link `systemctl enable` makes for the unit's `WantedBy=default.target`.
    var wantsLinkPath: String { configHome + "/systemd/user/default.target.wants/" + AutostartFiles.unitName }

    /// Asks `systemctl --user is-system-running`: "running", "degraded" (some other unit
    /// failed), "starting", "initializing" or "maintenance" mean a manager answers; any other
    /// answer ("offline", "stopping", …) or none means it does not.
    public func systemdUserInstance() -> SystemdUserInstance {
        switch userManager() {
        case .reachable: .reachable
        case .unreachable(let reason): .unreachable(reason: reason)
        }
    }

    /// Makes syncagent start at every login, and now where systemd can start it.
    /// - Parameter force: replace a file that was edited by hand instead of refusing.
    public func install(force: Bool) throws(AutostartError) -> [AutostartChange] {
        switch userManager() {
        case .reachable(let systemctl):
            return try installUnit(systemctl: systemctl, force: force)
        case .unreachable(let reason):
            var changes: [AutostartChange] = []
            if systemctl != nil {
                changes.append(try installUnitForNextLogin(force: force, reason: reason))
            }
            let entry = AutostartFiles.stamped(try AutostartFiles.desktopEntry(executable: executable))
            let file = try place(entry, at: desktopEntryPath, kind: "XDG autostart entry", force: force)
            changes.append(.desktopEntry(path: shown(desktopEntryPath), executable: executable, file: file, reason: reason))
            if systemctl == nil, (currentDesktop ?? "").isEmpty {
                changes.append(.nothingMayStart(path: shown(desktopEntryPath), executable: executable))
            }
            changes.append(.notStartedNow(executable: executable))
            return changes
        }
    }

    /// The unit, enabled by hand as `systemctl enable` would (a link in
    /// `default.target.wants`), for the next session a user manager runs.
    private func installUnitForNextLogin(force: Bool, reason: String) throws(AutostartError) -> AutostartChange {
        let unit = AutostartFiles.stamped(try AutostartFiles.unit(executable: executable))
        let file = try place(unit, at: unitPath, kind: "systemd user unit", force: force)
        if AutostartFileSystem.linkTarget(wantsLinkPath) != unitPath {
            try AutostartFileSystem.remove(wantsLinkPath)
            try AutostartFileSystem.link(wantsLinkPath, to: unitPath)
        }
        return .unit(path: shown(unitPath), executable: executable, file: file, service: .enabledForNextLogin(reason: reason))
    }

    /// Undoes ``install(force:)``: stops and disables the unit where systemd answers, and
    /// removes its link, and the unit and the XDG autostart entry where they are as install
    /// wrote them; a file edited since, or not install's, is left and named.
    public func uninstall() throws(AutostartError) -> [AutostartChange] {
        var changes: [AutostartChange] = []
        let unit = try AutostartFileSystem.entry(at: unitPath)
        if unit == .nothing {
            if AutostartFileSystem.linkTarget(wantsLinkPath) == unitPath, try AutostartFileSystem.remove(wantsLinkPath) {
                changes.append(.removedDanglingLink(path: shown(wantsLinkPath)))
            }
        } else {
            changes.append(try removeUnit(keepingTheFile: !Self.isUnedited(unit)))
        }
        let entry = try AutostartFileSystem.entry(at: desktopEntryPath)
        if Self.isUnedited(entry) {
            try AutostartFileSystem.remove(desktopEntryPath)
            changes.append(.removedDesktopEntry(path: shown(desktopEntryPath)))
        } else if entry != .nothing {
            changes.append(.leftEditedDesktopEntry(path: shown(desktopEntryPath)))
        }
        if changes.isEmpty {
            changes.append(.nothingToRemove(unitPath: shown(unitPath), desktopEntryPath: shown(desktopEntryPath)))
        }
        return changes
    }

    private func installUnit(systemctl: AutostartSystemctl, force: Bool) throws(AutostartError) -> [AutostartChange] {
        let unit = AutostartFiles.stamped(try AutostartFiles.unit(executable: executable))
        let file = try place(unit, at: unitPath, kind: "systemd user unit", force: force)
        let inPlace = "\(shown(unitPath)) is in place; run `syncagent install` again once systemd works."
        if file != .unchanged {
            try run(systemctl, ["daemon-reload"], afterwards: inPlace)
        }
        let name = AutostartFiles.unitName
        let isEnabled = Self.firstLine(systemctl.run(["is-enabled", name]).output) == "enabled"
        let activeState = Self.firstLine(systemctl.run(["is-active", name]).output)
        let isRunning = activeState == "active" || activeState == "reloading"
        if activeState == "failed" {
            // After too many failed starts systemd refuses even a user's start until this.
            _ = systemctl.run(["reset-failed", name])
        }
        let service: AutostartChange.ServiceChange
        if file == .unchanged && isEnabled && isRunning {
            service = .alreadyRunning
        } else if file != .unchanged && isRunning {
            try run(systemctl, ["enable", name], afterwards: inPlace)
            try run(systemctl, ["restart", name], afterwards: inPlace)
            service = .restarted
        } else {
            try run(systemctl, ["enable", "--now", name], afterwards: inPlace)
            service = .started
        }
        var changes: [AutostartChange] = [.unit(path: shown(unitPath), executable: executable, file: file, service: service)]
        let entry = try AutostartFileSystem.entry(at: desktopEntryPath)
        if Self.isUnedited(entry) {
            try AutostartFileSystem.remove(desktopEntryPath)
            changes.append(.removedReplacedDesktopEntry(path: shown(desktopEntryPath)))
        } else if entry != .nothing {
            changes.append(.keptEditedDesktopEntry(path: shown(desktopEntryPath)))
        }
        return changes
    }

    /// Stops and disables the unit, and removes its file unless `keepingTheFile` (one that
    /// install did not write, or that was edited since: the user's, not ours to delete).
    private func removeUnit(keepingTheFile: Bool) throws(AutostartError) -> AutostartChange {
        let notStoppedBecause: String?
        switch userManager() {
        case .reachable(let systemctl):
            try run(systemctl, ["disable", "--now", AutostartFiles.unitName], afterwards: "Nothing was removed.")
            if !keepingTheFile {
                try AutostartFileSystem.remove(unitPath)
                try run(systemctl, ["daemon-reload"], afterwards: "\(shown(unitPath)) was removed.")
            }
            notStoppedBecause = nil
        case .unreachable(let reason):
            // What `systemctl disable` would remove, done by hand: systemctl needs the manager.
            // With the unit in the user's folder, the link can only be its enabling.
            if try AutostartFileSystem.entry(at: wantsLinkPath) == .symbolicLink {
                try AutostartFileSystem.remove(wantsLinkPath)
            }
            if !keepingTheFile { try AutostartFileSystem.remove(unitPath) }
            notStoppedBecause = reason
        }
        return keepingTheFile
            ? .leftEditedUnit(path: shown(unitPath), notStoppedBecause: notStoppedBecause)
            : .removedUnit(path: shown(unitPath), notStoppedBecause: notStoppedBecause)
    }

    /// ``systemdUserInstance()``, with the systemctl that reached it.
    private enum UserManager {
        case reachable(AutostartSystemctl)
        case unreachable(reason: String)
    }

    private func userManager() -> UserManager {
        guard let systemctl else { return .unreachable(reason: "systemctl is not installed") }
        let run = systemctl.run(["is-system-running"])
        let state = Self.firstLine(run.output)
        if ["running", "degraded", "starting", "initializing", "maintenance"].contains(state) { return .reachable(systemctl) }
        if !state.isEmpty { return .unreachable(reason: "`systemctl --user is-system-running` says \"\(state)\"") }
        let error = Self.firstLine(run.errorOutput)
        return .unreachable(
            reason: "`systemctl --user is-system-running` failed" + (error.isEmpty ? " with exit status \(run.status)" : ": \(error)")
        )
    }

    /// Writes `text` to `path` unless it is there already; refuses to replace a file that
    /// install did not write, or that was edited since, unless `force`.
    private func place(_ text: String, at path: String, kind: String, force: Bool) throws(AutostartError) -> AutostartChange.FileChange {
        let change: AutostartChange.FileChange
        switch try AutostartFileSystem.entry(at: path) {
        case .nothing:
            change = .created
        case .file(let existing) where existing == text:
            return .unchanged
        case .file(let existing) where AutostartFiles.isUnedited(existing):
            change = .updated(previousExecutable: AutostartFiles.executable(in: existing))
        case .file, .symbolicLink:
            guard force else {
                throw AutostartError(
                    .editedByHand,
                    "\(shown(path)) is not the \(kind) `syncagent install` wrote: "
                        + "it was edited or put there by hand, so it was left as it is. "
                        + "Run `syncagent install --force` to replace it."
                )
            }
            change = .replacedEdited
        }
        try AutostartFileSystem.writeAtomically(text, to: path)
        return change
    }

    /// Runs `systemctl --user arguments…`; a failure names the command, says what systemctl
    /// said, then `afterwards`: where things were left.
    private func run(_ systemctl: AutostartSystemctl, _ arguments: [String], afterwards: String) throws(AutostartError) {
        let result = systemctl.run(arguments)
        guard result.status != 0 else { return }
        var said = Self.firstLine(result.errorOutput)
        while said.hasSuffix(".") { said.removeLast() }
        throw AutostartError(
            .systemctl,
            "`systemctl --user \(arguments.joined(separator: " "))` failed"
                + (said.isEmpty ? " with exit status \(result.status)" : ": \(said)") + ". " + afterwards
        )
    }

    /// `path` with the home folder written as `~`.
    private func shown(_ path: String) -> String {
        guard home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    private static func isUnedited(_ entry: AutostartFileSystem.Entry) -> Bool {
        guard case .file(let text) = entry else { return false }
        return AutostartFiles.isUnedited(text)
    }

    private static func firstLine(_ text: String) -> String {
        String((text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "").trimmingSpaces())
    }
}
