import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SyncAgentKit

/// Install and uninstall against a temporary XDG_CONFIG_HOME. systemd cannot run a user
/// manager in this container (it refuses unless it booted the machine), so `systemctl` is
/// ``FakeSystemctl``: it records each call and answers as a user manager would.
struct AutostartTests {
    let folder: TemporaryDirectory
    let systemd: FakeSystemctl
    let executable = "/opt/syncagent/bin/syncagent"

    init() throws {
        folder = try TemporaryDirectory(prefix: "autostart")
        systemd = FakeSystemctl(configHome: folder.appending("home/.config"))
    }

    var directories: XDGDirectories {
        XDGDirectories(environment: ["HOME": folder.appending("home")]) { _ in nil }
    }

    func autostart(executable: String? = nil, systemctl: AutostartSystemctl?, currentDesktop: String? = "GNOME") -> Autostart {
        Autostart(directories: directories, executable: executable ?? self.executable, systemctl: systemctl, currentDesktop: currentDesktop)
    }

    var withSystemd: Autostart { autostart(systemctl: systemd.systemctl) }
    var unitPath: String { folder.appending("home/.config/systemd/user/syncagent.service") }
    var wantsLink: String { folder.appending("home/.config/systemd/user/default.target.wants/syncagent.service") }
    var entryPath: String { folder.appending("home/.config/autostart/syncagent.desktop") }
    let unit = "~/.config/systemd/user/syncagent.service"
    let entry = "~/.config/autostart/syncagent.desktop"

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: install with systemd

    @Test func installWritesTheUnitReloadsAndEnablesItNow() throws {
        let changes = try withSystemd.install(force: false)
        #expect(changes == [.unit(path: unit, executable: executable, file: .created, service: .started)])
        #expect(contents(unitPath) == AutostartFiles.stamped(try AutostartFiles.unit(executable: executable)))
        #expect(systemd.calls == [
            ["is-system-running"], ["daemon-reload"], ["is-enabled", "syncagent.service"],
            ["is-active", "syncagent.service"], ["enable", "--now", "syncagent.service"],
        ])
        #expect(systemd.isEnabled && systemd.activeState == "active")
        #expect(contents(entryPath) == nil)
    }

    @Test func installingAgainAsksSystemdOnlyWhetherItRuns() throws {
        _ = try withSystemd.install(force: false)
        let inode = try FileManager.default.attributesOfItem(atPath: unitPath)[.systemFileNumber] as? Int
        systemd.forgetCalls()
        let changes = try withSystemd.install(force: false)
        #expect(changes == [.unit(path: unit, executable: executable, file: .unchanged, service: .alreadyRunning)])
        #expect(systemd.calls == [["is-system-running"], ["is-enabled", "syncagent.service"], ["is-active", "syncagent.service"]])
        #expect(try FileManager.default.attributesOfItem(atPath: unitPath)[.systemFileNumber] as? Int == inode)
    }

    @Test func installStartsAStoppedUnitWhoseFileIsInPlace() throws {
        _ = try withSystemd.install(force: false)
        systemd.set(enabled: false, active: "inactive")
        systemd.forgetCalls()
        let changes = try withSystemd.install(force: false)
        #expect(changes == [.unit(path: unit, executable: executable, file: .unchanged, service: .started)])
        #expect(systemd.calls.last == ["enable", "--now", "syncagent.service"])
        #expect(!systemd.calls.contains(["daemon-reload"]))
    }

    @Test func installClearsAFailedUnitBeforeStartingIt() throws {
        _ = try withSystemd.install(force: false)
        systemd.set(enabled: true, active: "failed")
        systemd.forgetCalls()
        _ = try withSystemd.install(force: false)
        #expect(systemd.calls.suffix(2) == [["reset-failed", "syncagent.service"], ["enable", "--now", "syncagent.service"]])
        #expect(systemd.activeState == "active")
    }

    @Test func installForAnotherBinaryUpdatesTheUnitAndRestartsIt() throws {
        _ = try autostart(executable: "/old/syncagent", systemctl: systemd.systemctl).install(force: false)
        systemd.forgetCalls()
        let changes = try withSystemd.install(force: false)
        #expect(changes == [.unit(path: unit, executable: executable, file: .updated(previousExecutable: "/old/syncagent"), service: .restarted)])
        #expect(contents(unitPath) == AutostartFiles.stamped(try AutostartFiles.unit(executable: executable)))
        #expect(systemd.calls == [
            ["is-system-running"], ["daemon-reload"], ["is-enabled", "syncagent.service"],
            ["is-active", "syncagent.service"], ["enable", "syncagent.service"], ["restart", "syncagent.service"],
        ])
        #expect(systemd.restarts == 1)
    }

    @Test func anEditedUnitIsLeftAloneWithoutForce() throws {
        _ = try withSystemd.install(force: false)
        let edited = try #require(contents(unitPath)).replacingOccurrences(of: "RestartSec=10s", with: "RestartSec=1min")
        try edited.write(toFile: unitPath, atomically: true, encoding: .utf8)
        systemd.forgetCalls()
        do {
            _ = try withSystemd.install(force: false)
            Issue.record("an edited unit was replaced without --force")
        } catch {
            #expect(error.code == .editedByHand)
            #expect(
                error.message == "~/.config/systemd/user/syncagent.service is not the systemd user unit `syncagent install` wrote: "
                    + "it was edited or put there by hand, so it was left as it is. Run `syncagent install --force` to replace it."
            )
        }
        #expect(contents(unitPath) == edited)
        #expect(systemd.calls == [["is-system-running"]])

        let changes = try withSystemd.install(force: true)
        #expect(changes == [.unit(path: unit, executable: executable, file: .replacedEdited, service: .restarted)])
        #expect(contents(unitPath) == AutostartFiles.stamped(try AutostartFiles.unit(executable: executable)))
    }

    @Test func aUnitInstallDidNotWriteCountsAsEdited() throws {
        try FileManager.default.createDirectory(atPath: (unitPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: unitPath, withDestinationPath: "/usr/lib/systemd/user/syncagent.service")
        #expect(throws: AutostartError.self) { try withSystemd.install(force: false) }
        #expect(AutostartFileSystem.linkTarget(unitPath) == "/usr/lib/systemd/user/syncagent.service")
        try FileManager.default.removeItem(atPath: unitPath)
        // The Debian package's unit, copied by hand, has no stamp: also the user's.
        try AutostartFiles.unit(executable: executable).write(toFile: unitPath, atomically: true, encoding: .utf8)
        #expect(throws: AutostartError.self) { try withSystemd.install(force: false) }
    }

    @Test func aFailingSystemctlIsReportedWithWhatItSaid() throws {
        systemd.fail(["enable", "--now", "syncagent.service"], saying: "Failed to enable unit: Unit file syncagent.service is masked.")
        do {
            _ = try withSystemd.install(force: false)
            Issue.record("a failed systemctl enable was not reported")
        } catch {
            #expect(error.code == .systemctl)
            #expect(
                error.message == "`systemctl --user enable --now syncagent.service` failed: Failed to enable unit: Unit file syncagent.service is masked. "
                    + "~/.config/systemd/user/syncagent.service is in place; run `syncagent install` again once systemd works."
            )
        }
    }

    @Test func installWithSystemdReplacesItsOwnDesktopEntryButNotAnEditedOne() throws {
        _ = try autostart(systemctl: nil).install(force: false)
        #expect(contents(entryPath) != nil)
        let changes = try withSystemd.install(force: false)
        #expect(changes == [
            .unit(path: unit, executable: executable, file: .created, service: .started),
            .removedReplacedDesktopEntry(path: entry),
        ])
        #expect(contents(entryPath) == nil)

        try "[Desktop Entry]\nType=Application\nName=mine\nExec=/opt/syncagent/bin/syncagent\n".write(toFile: entryPath, atomically: true, encoding: .utf8)
        #expect(try withSystemd.install(force: false).last == .keptEditedDesktopEntry(path: entry))
        #expect(contents(entryPath) != nil)
    }

    // MARK: install without systemd

    @Test func withoutSystemctlInstallWritesTheDesktopEntry() throws {
        let changes = try autostart(systemctl: nil).install(force: false)
        #expect(changes == [
            .desktopEntry(path: entry, executable: executable, file: .created, reason: "systemctl is not installed"),
            .notStartedNow(executable: executable),
        ])
        #expect(contents(entryPath) == AutostartFiles.stamped(try AutostartFiles.desktopEntry(executable: executable)))
        #expect(contents(unitPath) == nil)
        let again = try autostart(systemctl: nil).install(force: false)
        #expect(again == [
            .desktopEntry(path: entry, executable: executable, file: .unchanged, reason: "systemctl is not installed"),
            .notStartedNow(executable: executable),
        ])
    }

    @Test func withoutSystemdOrADesktopSessionInstallSaysNothingMayStartIt() throws {
        let changes = try autostart(systemctl: nil, currentDesktop: nil).install(force: false)
        #expect(changes == [
            .desktopEntry(path: entry, executable: executable, file: .created, reason: "systemctl is not installed"),
            .nothingMayStart(path: entry, executable: executable),
            .notStartedNow(executable: executable),
        ])
    }

    /// su, SSH without pam_systemd, a container: systemd is there but its user manager does
    /// not answer now. The entry alone (with X-systemd-skip) would start nothing in a later
    /// systemd session, so the unit is written and enabled by hand too.
    @Test func anUnreachableManagerGetsTheUnitEnabledByHandAndTheDesktopEntry() throws {
        systemd.set(systemState: "offline")
        let reason = "`systemctl --user is-system-running` says \"offline\""
        let changes = try withSystemd.install(force: false)
        #expect(changes == [
            .unit(path: unit, executable: executable, file: .created, service: .enabledForNextLogin(reason: reason)),
            .desktopEntry(path: entry, executable: executable, file: .created, reason: reason),
            .notStartedNow(executable: executable),
        ])
        #expect(systemd.calls == [["is-system-running"]])
        #expect(contents(unitPath) == AutostartFiles.stamped(try AutostartFiles.unit(executable: executable)))
        #expect(AutostartFileSystem.linkTarget(wantsLink) == unitPath, "the link `systemctl enable` makes")
        #expect(contents(entryPath)?.contains("\nX-systemd-skip=true\n") == true)

        // The next session with systemd: installing again there starts it and drops the entry.
        systemd.set(systemState: "running")
        systemd.forgetCalls()
        let later = try withSystemd.install(force: false)
        #expect(later.first == .unit(path: unit, executable: executable, file: .unchanged, service: .started))
        #expect(later.last == .removedReplacedDesktopEntry(path: entry))
    }

    @Test func theDesktopEntryInstallWritesPassesDesktopFileValidate() throws {
        _ = try autostart(systemctl: nil).install(force: false)
        let result = try ExternalTool.desktopFileValidate(entryPath)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func theUnitInstallWritesPassesSystemdAnalyzeVerify() throws {
        _ = try autostart(executable: try BuiltProducts.executable(named: "syncagent"), systemctl: systemd.systemctl).install(force: false)
        let result = try ExternalTool.verifyUnit(try #require(contents(unitPath)))
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func theUserInstanceIsReachableWhileItRunsOrIsDegraded() {
        for state in ["running", "degraded", "starting", "initializing"] {
            systemd.set(systemState: state)
            #expect(withSystemd.systemdUserInstance() == .reachable, "\(state)")
        }
        systemd.set(systemState: "stopping")
        #expect(withSystemd.systemdUserInstance() == .unreachable(reason: "`systemctl --user is-system-running` says \"stopping\""))
        let silent = AutostartSystemctl { _ in .init(status: 1, errorOutput: "Failed to connect to bus: No such file or directory\n") }
        #expect(
            autostart(systemctl: silent).systemdUserInstance()
                == .unreachable(reason: "`systemctl --user is-system-running` failed: Failed to connect to bus: No such file or directory")
        )
    }

    @Test func anUnwritableConfigFolderIsReported() throws {
        try FileManager.default.createDirectory(atPath: folder.appending("home"), withIntermediateDirectories: true)
        try "not a folder".write(toFile: folder.appending("home/.config"), atomically: false, encoding: .utf8)
        do {
            _ = try autostart(systemctl: nil).install(force: false)
            Issue.record("installed under a regular file")
        } catch {
            #expect(error.code == .fileSystem)
            #expect(error.message.contains(folder.appending("home/.config")), "\(error.message)")
        }
    }

    // MARK: uninstall

    @Test func uninstallWithSystemdStopsDisablesAndRemovesTheUnit() throws {
        _ = try withSystemd.install(force: false)
        #expect(AutostartFileSystem.linkTarget(wantsLink) == unitPath)
        systemd.forgetCalls()
        let changes = try withSystemd.uninstall()
        #expect(changes == [.removedUnit(path: unit, notStoppedBecause: nil)])
        #expect(systemd.calls == [["is-system-running"], ["disable", "--now", "syncagent.service"], ["daemon-reload"]])
        #expect(contents(unitPath) == nil)
        #expect(try AutostartFileSystem.entry(at: wantsLink) == .nothing)
        #expect(!systemd.isEnabled && systemd.activeState == "inactive")

        systemd.forgetCalls()
        #expect(try withSystemd.uninstall() == [.nothingToRemove(unitPath: unit, desktopEntryPath: entry)])
        #expect(systemd.calls.isEmpty)
    }

    @Test func uninstallWithoutSystemdRemovesTheUnitAndTheLinkEnableMade() throws {
        _ = try withSystemd.install(force: false)
        let changes = try autostart(systemctl: nil).uninstall()
        #expect(changes == [.removedUnit(path: unit, notStoppedBecause: "systemctl is not installed")])
        #expect(contents(unitPath) == nil)
        #expect(try AutostartFileSystem.entry(at: wantsLink) == .nothing)
    }

    @Test func uninstallRemovesItsDesktopEntryButLeavesAnEditedOne() throws {
        _ = try autostart(systemctl: nil).install(force: false)
        #expect(try autostart(systemctl: nil).uninstall() == [.removedDesktopEntry(path: entry)])
        #expect(contents(entryPath) == nil)

        _ = try autostart(systemctl: nil).install(force: false)
        let edited = contents(entryPath)! + "X-Mine=true\n"
        try edited.write(toFile: entryPath, atomically: true, encoding: .utf8)
        #expect(try autostart(systemctl: nil).uninstall() == [.leftEditedDesktopEntry(path: entry)])
        #expect(contents(entryPath) == edited)
    }

    /// Install refused to overwrite a unit the user wrote; uninstall must not delete it either.
    @Test func uninstallDisablesButKeepsAUnitInstallRefusedToOverwrite() throws {
        let own = "[Service]\nExecStart=/usr/local/bin/my-syncagent\n"
        try FileManager.default.createDirectory(atPath: folder.appending("home/.config/systemd/user"), withIntermediateDirectories: true)
        try own.write(toFile: unitPath, atomically: true, encoding: .utf8)
        #expect(throws: AutostartError.self) { try withSystemd.install(force: false) }
        systemd.forgetCalls()

        let changes = try withSystemd.uninstall()

        #expect(changes == [.leftEditedUnit(path: unit, notStoppedBecause: nil)])
        #expect(contents(unitPath) == own)
        #expect(systemd.calls == [["is-system-running"], ["disable", "--now", "syncagent.service"]])
    }

    @Test func uninstallRemovesALinkLeftByADeletedUnit() throws {
        _ = try withSystemd.install(force: false)
        try FileManager.default.removeItem(atPath: unitPath)
        let changes = try autostart(systemctl: nil).uninstall()
        #expect(changes == [.removedDanglingLink(path: "~/.config/systemd/user/default.target.wants/syncagent.service")])
        #expect(try AutostartFileSystem.entry(at: wantsLink) == .nothing)
    }

    @Test func uninstallWithNothingInstalledTouchesNothing() throws {
        #expect(try withSystemd.uninstall() == [.nothingToRemove(unitPath: unit, desktopEntryPath: entry)])
        #expect(systemd.calls.isEmpty)
        #expect(try AutostartFileSystem.entry(at: folder.appending("home")) == .nothing)
    }
}

/// A stand-in for `systemctl --user` talking to a user manager: records every call, keeps
/// the unit's enabled and active state, and makes and removes the `default.target.wants`
/// link the way `enable` and `disable` do.
final class FakeSystemctl: Sendable {
    private struct State {
        var calls: [[String]] = []
        var systemState = "running"
        var isEnabled = false
        var activeState = "inactive"
        var restarts = 0
        var failures: [[String]: String] = [:]
    }

    private let state = Mutex(State())
    private let configHome: String

    init(configHome: String) {
        self.configHome = configHome
    }

    /// The closure install and uninstall are given.
    var systemctl: AutostartSystemctl {
        AutostartSystemctl { [self] arguments in answer(arguments) }
    }

    var calls: [[String]] { state.withLock { $0.calls } }
    var isEnabled: Bool { state.withLock { $0.isEnabled } }
    var activeState: String { state.withLock { $0.activeState } }
    var restarts: Int { state.withLock { $0.restarts } }

    func forgetCalls() { state.withLock { $0.calls = [] } }
    func set(systemState: String) { state.withLock { $0.systemState = systemState } }
    func set(enabled: Bool, active: String) {
        state.withLock {
            $0.isEnabled = enabled
            $0.activeState = active
        }
    }

    /// Makes `arguments` fail with exit status 1 and `message` on stderr.
    func fail(_ arguments: [String], saying message: String) {
        state.withLock { $0.failures[arguments] = message + "\n" }
    }

    private var wantsLink: String { configHome + "/systemd/user/default.target.wants/syncagent.service" }

    private func answer(_ arguments: [String]) -> AutostartSystemctl.Run {
        state.withLock { state in
            state.calls.append(arguments)
            if let message = state.failures[arguments] { return .init(status: 1, errorOutput: message) }
            switch arguments {
            case ["is-system-running"]:
                return .init(status: state.systemState == "running" ? 0 : 1, output: state.systemState + "\n")
            case ["is-enabled", "syncagent.service"]:
                return .init(status: state.isEnabled ? 0 : 1, output: state.isEnabled ? "enabled\n" : "disabled\n")
            case ["is-active", "syncagent.service"]:
                return .init(status: state.activeState == "active" ? 0 : 3, output: state.activeState + "\n")
            case ["daemon-reload"]:
                return .init(status: 0)
            case ["enable", "syncagent.service"], ["enable", "--now", "syncagent.service"]:
                state.isEnabled = true
                try? FileManager.default.createDirectory(atPath: (wantsLink as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try? FileManager.default.createSymbolicLink(atPath: wantsLink, withDestinationPath: configHome + "/systemd/user/syncagent.service")
                if arguments.contains("--now") { state.activeState = "active" }
                return .init(status: 0)
            case ["restart", "syncagent.service"]:
                state.activeState = "active"
                state.restarts += 1
                return .init(status: 0)
            case ["reset-failed", "syncagent.service"]:
                if state.activeState == "failed" { state.activeState = "inactive" }
                return .init(status: 0)
            case ["disable", "--now", "syncagent.service"]:
                state.isEnabled = false
                state.activeState = "inactive"
                try? FileManager.default.removeItem(atPath: wantsLink)
                return .init(status: 0)
            default:
                return .init(status: 1, errorOutput: "Unknown command verb \(arguments.first ?? "").\n")
            }
        }
    }
}
