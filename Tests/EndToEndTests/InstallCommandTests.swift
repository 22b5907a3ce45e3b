import Foundation
import Testing
import TestSupport

/// `syncagent install` and `uninstall`, the built binary, with HOME and XDG_CONFIG_HOME in a
/// temporary folder and no systemd user instance: the XDG autostart entry is what they set
/// up and remove. (No systemd user manager can run in this container; the systemd path is
/// covered by the unit tests with a recording systemctl.)
struct InstallCommandTests {
    let folder: TemporaryDirectory
    let entryPath: String
    let executable: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "install")
        entryPath = folder.appending("home/.config/autostart/syncagent.desktop")
        // What /proc/self/exe says: the built binary with symbolic links resolved.
        executable = URL(fileURLWithPath: try BuiltProducts.executable(named: "syncagent")).resolvingSymlinksInPath().path
    }

    /// The binary with only these variables: no session bus address, so nothing can reach
    /// a real user manager, and a runtime folder of its own.
    func syncagent(path: String, desktop: String? = nil) throws -> SyncAgentProcess {
        let runtime = folder.appending("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = [
            "HOME": folder.appending("home"), "XDG_CONFIG_HOME": folder.appending("home/.config"),
            "XDG_RUNTIME_DIR": runtime, "PATH": path,
        ]
        environment["XDG_CURRENT_DESKTOP"] = desktop
        return try SyncAgentProcess(environment: environment, folder: folder)
    }

    /// A PATH without systemctl on it.
    var pathWithoutSystemctl: String { folder.appending("no-such-folder") }

    @Test func installThenUninstallTheAutostartEntryTwiceEach() throws {
        let syncagent = try syncagent(path: pathWithoutSystemctl)

        let install = try syncagent.run(["install"])
        #expect(install.status == 0, "\(install.standardError)")
        #expect(install.standardError.isEmpty)
        #expect(
            install.standardOutput
                == "installed the XDG autostart entry ~/.config/autostart/syncagent.desktop; syncagent starts at your next login (no systemd user instance is reachable: systemctl is not installed)\n"
                + "warning: nothing may start syncagent at login: systemd is not installed, and XDG_CURRENT_DESKTOP is not set, so this session may not read ~/.config/autostart/syncagent.desktop; start \(executable) from your session's startup file instead\n"
                + notStartedNow
        )
        let entry = try String(contentsOfFile: entryPath, encoding: .utf8)
        #expect(entry.contains("\nExec=\(executable)\n"), "\(entry)")
        let validation = try Self.desktopFileValidate(entryPath)
        #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")

        let again = try syncagent.run(["install"])
        #expect(again.status == 0)
        #expect(again.standardOutput.hasPrefix("already installed: the XDG autostart entry ~/.config/autostart/syncagent.desktop starts syncagent at every login\nwarning: "))
        #expect(try String(contentsOfFile: entryPath, encoding: .utf8) == entry)

        let uninstall = try syncagent.run(["uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.standardError)")
        #expect(uninstall.standardOutput == "removed the XDG autostart entry ~/.config/autostart/syncagent.desktop\n")
        #expect(!FileManager.default.fileExists(atPath: entryPath))

        let uninstallAgain = try syncagent.run(["uninstall"])
        #expect(uninstallAgain.status == 0)
        #expect(
            uninstallAgain.standardOutput
                == "nothing to remove: neither ~/.config/systemd/user/syncagent.service nor ~/.config/autostart/syncagent.desktop exists\n"
        )
        #expect(uninstallAgain.standardError.isEmpty)
    }

    var notStartedNow: String {
        "syncagent was not started now (no systemd user instance can start it); to run it in this session, start \(executable) in the background\n"
    }

    @Test func anEditedEntryIsKeptUnlessForced() throws {
        let syncagent = try syncagent(path: pathWithoutSystemctl, desktop: "XFCE")
        #expect(try syncagent.run(["install"]).status == 0)
        let edited = try String(contentsOfFile: entryPath, encoding: .utf8) + "X-GNOME-Autostart-Delay=30\n"
        try edited.write(toFile: entryPath, atomically: true, encoding: .utf8)

        let refused = try syncagent.run(["install"])
        #expect(refused.status == 3)
        #expect(refused.standardOutput.isEmpty)
        #expect(
            refused.standardError
                == "syncagent: ~/.config/autostart/syncagent.desktop is not the XDG autostart entry `syncagent install` wrote: it was edited or put there by hand, so it was left as it is. Run `syncagent install --force` to replace it.\n"
        )
        #expect(try String(contentsOfFile: entryPath, encoding: .utf8) == edited)

        let forced = try syncagent.run(["install", "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(
            forced.standardOutput
                == "replaced the edited XDG autostart entry ~/.config/autostart/syncagent.desktop (--force); syncagent starts at your next login (no systemd user instance is reachable: systemctl is not installed)\n"
                + notStartedNow
        )
        #expect(try String(contentsOfFile: entryPath, encoding: .utf8) != edited)
    }

    /// The real systemctl, asked with a runtime folder where no manager listens: this is
    /// how install decides on a machine without a user manager. What systemctl answers
    /// depends on whether systemd booted the machine ("offline", or a failure to connect).
    @Test func theRealSystemctlWithoutAUserManagerLeadsToTheUnitEnabledByHandAndTheAutostartEntry() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemctl") else {
            throw TestSupportError("systemctl is not installed; run scripts/install-deps --test")
        }
        let syncagent = try syncagent(path: "/usr/bin:/bin")
        let install = try syncagent.run(["install"])
        #expect(install.status == 0, "\(install.standardError)")
        let lines = install.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(install.standardOutput)")
        #expect(lines.first?.hasPrefix(
            "installed the systemd user unit ~/.config/systemd/user/syncagent.service and enabled it by hand; it starts at your next login with systemd "
                + "(no systemd user instance is reachable now: `systemctl --user is-system-running` "
        ) == true, "\(install.standardOutput)")
        #expect(lines.dropFirst().first?.hasPrefix("installed the XDG autostart entry ~/.config/autostart/syncagent.desktop; ") == true)
        #expect(lines.last.map { $0 + "\n" } == notStartedNow)
        #expect(FileManager.default.fileExists(atPath: entryPath))
        let unit = folder.appending("home/.config/systemd/user/syncagent.service")
        #expect(FileManager.default.fileExists(atPath: unit))
        let link = folder.appending("home/.config/systemd/user/default.target.wants/syncagent.service")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == unit)

        let uninstall = try syncagent.run(["uninstall"])
        #expect(uninstall.standardOutput.hasPrefix("removed the systemd user unit ~/.config/systemd/user/syncagent.service; nothing was stopped"))
        #expect(uninstall.standardOutput.hasSuffix("\nremoved the XDG autostart entry ~/.config/autostart/syncagent.desktop\n"))
        #expect(!FileManager.default.fileExists(atPath: unit) && !FileManager.default.fileExists(atPath: entryPath))
    }

    /// `desktop-file-validate path`: its exit status and everything it printed.
    static func desktopFileValidate(_ path: String) throws -> (status: Int32, output: String) {
        let validator = "/usr/bin/desktop-file-validate"
        guard FileManager.default.isExecutableFile(atPath: validator) else {
            throw TestSupportError("desktop-file-validate is not installed; run scripts/install-deps --test")
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: validator)
        process.arguments = [path]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
