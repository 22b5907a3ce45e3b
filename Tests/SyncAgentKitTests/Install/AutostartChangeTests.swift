import Testing
@testable import SyncAgentKit

/// The exact sentences `syncagent install` and `uninstall` print.
struct AutostartChangeTests {
    let unit = "~/.config/systemd/user/syncagent.service"
    let entry = "~/.config/autostart/syncagent.desktop"
    let reason = "systemctl is not installed"

    @Test func installingTheUnit() {
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/syncagent", file: .created, service: .started).description
                == "installed the systemd user unit ~/.config/systemd/user/syncagent.service; it starts now and at every login"
        )
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/syncagent", file: .unchanged, service: .alreadyRunning).description
                == "already installed: the systemd user unit ~/.config/systemd/user/syncagent.service is enabled and running; it starts at every login"
        )
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/syncagent", file: .unchanged, service: .started).description
                == "the systemd user unit ~/.config/systemd/user/syncagent.service was already in place; enabled and started it: it starts now and at every login"
        )
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/new", file: .updated(previousExecutable: "/opt/old"), service: .restarted).description
                == "updated the systemd user unit ~/.config/systemd/user/syncagent.service to run /opt/new instead of /opt/old and restarted it; it starts at every login"
        )
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/new", file: .updated(previousExecutable: "/opt/new"), service: .started).description
                == "updated the systemd user unit ~/.config/systemd/user/syncagent.service to the one this syncagent writes; it starts now and at every login"
        )
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/new", file: .replacedEdited, service: .restarted).description
                == "replaced the edited systemd user unit ~/.config/systemd/user/syncagent.service (--force) and restarted it; it starts at every login"
        )
    }

    @Test func installingTheDesktopEntry() {
        #expect(
            AutostartChange.desktopEntry(path: entry, executable: "/opt/syncagent", file: .created, reason: reason).description
                == "installed the XDG autostart entry ~/.config/autostart/syncagent.desktop; syncagent starts at your next login (no systemd user instance is reachable: systemctl is not installed)"
        )
        #expect(
            AutostartChange.desktopEntry(path: entry, executable: "/opt/syncagent", file: .unchanged, reason: reason).description
                == "already installed: the XDG autostart entry ~/.config/autostart/syncagent.desktop starts syncagent at every login"
        )
        #expect(
            AutostartChange.desktopEntry(path: entry, executable: "/opt/new", file: .updated(previousExecutable: "/opt/old"), reason: reason).description
                == "updated the XDG autostart entry ~/.config/autostart/syncagent.desktop to run /opt/new instead of /opt/old; syncagent starts at your next login (no systemd user instance is reachable: systemctl is not installed)"
        )
        #expect(
            AutostartChange.removedReplacedDesktopEntry(path: entry).description
                == "removed the XDG autostart entry ~/.config/autostart/syncagent.desktop: the systemd user unit replaces it"
        )
        #expect(
            AutostartChange.keptEditedDesktopEntry(path: entry).description
                == "left the XDG autostart entry ~/.config/autostart/syncagent.desktop in place, because it was edited by hand; remove it if it starts a second syncagent"
        )
    }

    @Test func installingWhereSystemdCannotStartItNow() {
        #expect(
            AutostartChange.unit(path: unit, executable: "/opt/syncagent", file: .created, service: .enabledForNextLogin(reason: "`systemctl --user is-system-running` says \"offline\"")).description
                == "installed the systemd user unit ~/.config/systemd/user/syncagent.service and enabled it by hand; it starts at your next login with systemd (no systemd user instance is reachable now: `systemctl --user is-system-running` says \"offline\")"
        )
        #expect(
            AutostartChange.notStartedNow(executable: "/opt/syncagent").description
                == "syncagent was not started now (no systemd user instance can start it); to run it in this session, start /opt/syncagent in the background"
        )
        #expect(
            AutostartChange.nothingMayStart(path: entry, executable: "/opt/syncagent").description
                == "warning: nothing may start syncagent at login: systemd is not installed, and XDG_CURRENT_DESKTOP is not set, so this session may not read ~/.config/autostart/syncagent.desktop; start /opt/syncagent from your session's startup file instead"
        )
    }

    @Test func uninstalling() {
        #expect(
            AutostartChange.removedUnit(path: unit, notStoppedBecause: nil).description
                == "stopped and disabled the systemd user unit and removed ~/.config/systemd/user/syncagent.service"
        )
        #expect(
            AutostartChange.removedUnit(path: unit, notStoppedBecause: reason).description
                == "removed the systemd user unit ~/.config/systemd/user/syncagent.service; nothing was stopped, because no systemd user instance is reachable (systemctl is not installed)"
        )
        #expect(
            AutostartChange.leftEditedUnit(path: unit, notStoppedBecause: nil).description
                == "stopped and disabled the systemd user unit, but left ~/.config/systemd/user/syncagent.service: it was edited by hand, or not written by `syncagent install`; delete it yourself if you no longer want it"
        )
        #expect(
            AutostartChange.leftEditedDesktopEntry(path: entry).description
                == "left the XDG autostart entry ~/.config/autostart/syncagent.desktop: it was edited by hand, or not written by `syncagent install`; delete it yourself if it should not start syncagent"
        )
        #expect(
            AutostartChange.removedDanglingLink(path: "~/.config/systemd/user/default.target.wants/syncagent.service").description
                == "removed ~/.config/systemd/user/default.target.wants/syncagent.service, a link to a unit that no longer exists"
        )
        #expect(
            AutostartChange.removedDesktopEntry(path: entry).description
                == "removed the XDG autostart entry ~/.config/autostart/syncagent.desktop"
        )
        #expect(
            AutostartChange.nothingToRemove(unitPath: unit, desktopEntryPath: entry).description
                == "nothing to remove: neither ~/.config/systemd/user/syncagent.service nor ~/.config/autostart/syncagent.desktop exists"
        )
    }
}
