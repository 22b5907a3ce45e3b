/// One thing `syncagent install` or `uninstall` did, or found already done; its
/// description is the sentence the command prints. Paths are as shown to the user (`~/…`).
public enum AutostartChange: Equatable, Sendable, CustomStringConvertible {
    /// What happened to a file install writes.
    public enum FileChange: Equatable, Sendable {
        /// There was none; now there is.
        case created
        /// An unedited file install wrote earlier, for `previousExecutable`, was replaced.
        case updated(previousExecutable: String?)
        /// A file edited by hand (or not install's) was replaced because of `--force`.
        case replacedEdited
        /// The file was already exactly what install writes.
        case unchanged
    }

    /// What happened to the running unit.
    public enum ServiceChange: Equatable, Sendable {
        /// Enabled and started (`systemctl --user enable --now`).
        case started
        /// Enabled and restarted, so the new unit file is the one running.
        case restarted
        /// It was enabled and running already; nothing was asked of systemd.
        case alreadyRunning
        /// systemd's user manager is not reachable now (for `reason`): enabled by hand, with
        /// the link `systemctl enable` makes, so it starts at the next login with one.
        case enabledForNextLogin(reason: String)
    }

    /// Install set up (or found) the systemd user unit at `path`, running `executable`.
    case unit(path: String, executable: String, file: FileChange, service: ServiceChange)
    /// Install set up (or found) the XDG autostart entry at `path`, running `executable`,
    /// because no systemd user instance was reachable, for `reason`.
    case desktopEntry(path: String, executable: String, file: FileChange, reason: String)
    /// Install removed its own XDG autostart entry at `path`: the unit replaces it.
    case removedReplacedDesktopEntry(path: String)
    /// Install found an XDG autostart entry at `path` that it did not write, and left it.
    case keptEditedDesktopEntry(path: String)
    /// Install could not start syncagent now, because no systemd user instance is
    /// reachable; `executable` starts it by hand.
    case notStartedNow(executable: String)
    /// Install wrote an XDG autostart entry, but nothing may read it: no systemd, and no
    /// desktop session (`XDG_CURRENT_DESKTOP` unset) that runs autostart entries.
    case nothingMayStart(path: String, executable: String)
    /// Uninstall removed the unit at `path`; `notStoppedBecause` says why systemd could not
    /// stop and disable it first, `nil` when it did.
    case removedUnit(path: String, notStoppedBecause: String?)
    /// Uninstall stopped and disabled the unit at `path` but left the file, which install did
    /// not write or which was edited since; `notStoppedBecause` as for ``removedUnit(path:notStoppedBecause:)``.
    case leftEditedUnit(path: String, notStoppedBecause: String?)
    /// Uninstall removed the `default.target.wants` link at `path`, whose unit was gone.
    case removedDanglingLink(path: String)
    /// Uninstall removed the XDG autostart entry at `path`.
    case removedDesktopEntry(path: String)
    /// Uninstall left the XDG autostart entry at `path`, which install did not write or which
    /// was edited since.
    case leftEditedDesktopEntry(path: String)
    /// Uninstall found neither file.
    case nothingToRemove(unitPath: String, desktopEntryPath: String)

    /// The sentence `syncagent install` or `uninstall` prints.
    public var description: String {
        switch self {
        case .unit(let path, _, .unchanged, .alreadyRunning):
            return "already installed: the systemd user unit \(path) is enabled and running; it starts at every login"
        case .unit(let path, _, .unchanged, _):
            return "the systemd user unit \(path) was already in place; enabled and started it: it starts now and at every login"
        case .unit(let path, let executable, let file, .enabledForNextLogin(let reason)):
            return Self.fileClause(file, "systemd user unit", path, executable)
                + " and enabled it by hand; it starts at your next login with systemd (no systemd user instance is reachable now: \(reason))"
        case .unit(let path, let executable, let file, let service):
            let startClause = service == .restarted
                ? " and restarted it; it starts at every login"
                : "; it starts now and at every login"
            return Self.fileClause(file, "systemd user unit", path, executable) + startClause
        case .desktopEntry(let path, _, .unchanged, _):
            return "already installed: the XDG autostart entry \(path) starts syncagent at every login"
        case .desktopEntry(let path, let executable, let file, let reason):
            return Self.fileClause(file, "XDG autostart entry", path, executable)
                + "; syncagent starts at your next login (no systemd user instance is reachable: \(reason))"
        case .removedReplacedDesktopEntry(let path):
            return "removed the XDG autostart entry \(path): the systemd user unit replaces it"
        case .keptEditedDesktopEntry(let path):
            return "left the XDG autostart entry \(path) in place, because it was edited by hand; remove it if it starts a second syncagent"
        case .notStartedNow(let executable):
            return "syncagent was not started now (no systemd user instance can start it); to run it in this session, start \(executable) in the background"
        case .nothingMayStart(let path, let executable):
            return "warning: nothing may start syncagent at login: systemd is not installed, and XDG_CURRENT_DESKTOP is not set, "
                + "so this session may not read \(path); start \(executable) from your session's startup file instead"
        case .removedUnit(let path, nil):
            return "stopped and disabled the systemd user unit and removed \(path)"
        case .removedUnit(let path, let reason?):
            return "removed the systemd user unit \(path); nothing was stopped, because no systemd user instance is reachable (\(reason))"
        case .leftEditedUnit(let path, nil):
            return "stopped and disabled the systemd user unit, but left \(path): \(Self.notInstallsOwn); delete it yourself if you no longer want it"
        case .leftEditedUnit(let path, let reason?):
            return "disabled the systemd user unit, but left \(path): \(Self.notInstallsOwn); delete it yourself if you no longer want it "
                + "(nothing was stopped, because no systemd user instance is reachable: \(reason))"
        case .removedDanglingLink(let path):
            return "removed \(path), a link to a unit that no longer exists"
        case .removedDesktopEntry(let path):
            return "removed the XDG autostart entry \(path)"
        case .leftEditedDesktopEntry(let path):
            return "left the XDG autostart entry \(path): \(Self.notInstallsOwn); delete it yourself if it should not start syncagent"
        case .nothingToRemove(let unitPath, let desktopEntryPath):
            return "nothing to remove: neither \(unitPath) nor \(desktopEntryPath) exists"
        }
    }

    private static func fileClause(_ file: FileChange, _ kind: String, _ path: String, _ executable: String) -> String {
        switch file {
        case .created, .unchanged:
            return "installed the \(kind) \(path)"
        case .updated(let previous?) where previous != executable:
            return "updated the \(kind) \(path) to run \(executable) instead of \(previous)"
        case .updated:
            return "updated the \(kind) \(path) to the one this syncagent writes"
        case .replacedEdited:
            return "replaced the edited \(kind) \(path) (--force)"
        }
    }

    private static let notInstallsOwn = "it was edited by hand, or not written by `syncagent install`"
}
