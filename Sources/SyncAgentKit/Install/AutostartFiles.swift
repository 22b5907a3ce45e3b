/// The two ways syncagent starts at login — a systemd user unit and an XDG autostart
/// entry — as text for a given executable.
///
/// `packaging/syncagent.service` is the unit for `/usr/bin/syncagent` (the Debian package
/// ships it, enabled by no one); a test keeps that file and this text the same. `syncagent install` writes them for the binary that
/// runs it, under a first line that records a checksum of the rest (``stamped(_:)``): a
/// file whose checksum still matches was not edited, so install may replace it.
public enum AutostartFiles {
    /// The file name of the unit, also its name for `systemctl`.
    public static let unitName = "syncagent.service"
    /// The file name of the XDG autostart entry.
    public static let desktopEntryName = "syncagent.desktop"

    /// The systemd user unit that runs `executable` as the login agent.
    public static func unit(executable: String) throws(AutostartError) -> String {
        try checkUsable(executable)
        guard !AutostartCommandLine.systemdRefuses(executable) else {
            throw AutostartError(
                .unsupportedExecutable,
                "The path of this syncagent, \(executable), holds a quote or a backslash, which systemd does not "
                    + "accept in the program a unit starts; \(plainerFolderAdvice)"
            )
        }
        return """
            # syncagent's systemd user unit: runs the login agent, in the foreground, for one user.
            # Debian installs it as /usr/lib/systemd/user/syncagent.service; `syncagent install` writes
            # a copy to ~/.config/systemd/user/ whose ExecStart= names the syncagent that wrote it.

            [Unit]
            Description=syncagent: keep a folder in step with a list of files on the web
            # A crash is retried, but five failed starts in ten minutes mean something is wrong that
            # restarting cannot fix: the unit then stays failed until the user starts it.
            StartLimitIntervalSec=10min
            StartLimitBurst=5

            [Service]
            Type=exec
            ExecStart=\(AutostartCommandLine.systemdExec(executable))
            # The agent reads its manifest again on SIGHUP. The shell's own kill, from $MAINPID in its
            # environment: the kill program (procps) is not on every system, the shell is (Essential).
            ExecReload=/bin/sh -c 'kill -HUP "$MAINPID"'
            # On SIGTERM the agent saves its state and exits within two seconds.
            KillSignal=SIGTERM
            TimeoutStopSec=5s
            Restart=on-failure
            RestartSec=10s
            # Exit status 2 means the command line is wrong: starting again cannot help.
            RestartPreventExitStatus=2
            SyslogIdentifier=syncagent
            StandardOutput=journal
            StandardError=journal

            # Only sandboxing that a user manager applies without a user namespace (no-new-privileges
            # and seccomp). ProtectSystem=, ProtectHome= and PrivateTmp= need one: where unprivileged
            # user namespaces are off or restricted the unit would not start at all, the user cannot
            # write system folders anyway, and the manifest may name any folder as its destination.
            # MemoryDenyWriteExecute= is left out because GLib's closures (libffi) may need it.
            NoNewPrivileges=yes
            LockPersonality=yes
            RestrictRealtime=yes
            RestrictSUIDSGID=yes
            RestrictNamespaces=yes
            SystemCallArchitectures=native
            SystemCallFilter=@system-service
            SystemCallErrorNumber=EPERM
            # Unix sockets for the session bus and the control socket, IP for downloads, netlink for
            # glibc's address lookup and the network conditions.
            RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK

            [Install]
            # default.target, the user manager's main target, rather than graphical-session.target:
            # many sessions (most window managers, older desktops) never start graphical-session.target,
            # and the agent is useful without a display; notifications need only the session bus,
            # which the user manager provides.
            WantedBy=default.target

            """
    }

    /// The XDG autostart entry that runs `executable` as the login agent.
    public static func desktopEntry(executable: String) throws(AutostartError) -> String {
        try checkUsable(executable)
        return """
            # syncagent's XDG autostart entry, for sessions without a systemd user manager. Where one
            # runs, syncagent.service starts the agent instead: X-systemd-skip and
            # X-GNOME-HiddenUnderSystemd keep the two from starting it twice.
            [Desktop Entry]
            Type=Application
            Name=syncagent
            Comment=Keep a folder in step with a list of files on the web
            Exec=\(AutostartCommandLine.desktopExec(executable))
            TryExec=\(AutostartCommandLine.desktopString(executable))
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true
            X-GNOME-HiddenUnderSystemd=true
            X-systemd-skip=true

            """
    }

    /// `body` under the first line `syncagent install` writes, which records its checksum.
    public static func stamped(_ body: String) -> String {
        stampPrefix + sha256(body) + ".\n" + body
    }

    /// Whether `text` is a file ``stamped(_:)`` made whose body nobody has changed since.
    public static func isUnedited(_ text: String) -> Bool {
        guard let newline = text.firstIndex(of: "\n") else { return false }
        let body = String(text[text.index(after: newline)...])
        return text[..<newline] == stampPrefix + sha256(body) + "."
    }

    /// The executable a unit's `ExecStart=` or an entry's `Exec=` names, for messages.
    public static func executable(in text: String) -> String? {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("ExecStart=") {
                return AutostartCommandLine.path(fromSystemdExec: String(line.dropFirst("ExecStart=".count)))
            }
            if line.hasPrefix("Exec=") {
                return AutostartCommandLine.path(fromDesktopExec: String(line.dropFirst("Exec=".count)))
            }
        }
        return nil
    }

    private static let stampPrefix = "# Written by `syncagent install`; it updates this file only while the lines below still match sha256 "

    private static func sha256(_ text: String) -> String {
        let hasher = SHA256Hasher()
        Array(text.utf8).withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    private static let plainerFolderAdvice = "move syncagent to a folder with a plainer name."

    /// Both formats need an absolute path on one line.
    private static func checkUsable(_ executable: String) throws(AutostartError) {
        guard executable.hasPrefix("/") else {
            throw AutostartError(
                .unsupportedExecutable,
                "Autostart needs the absolute path of syncagent, not \"\(executable)\"."
            )
        }
        guard AutostartCommandLine.unsupportedCharacter(in: executable) == nil else {
            throw AutostartError(
                .unsupportedExecutable,
                "The path of this syncagent, \(executable), holds a newline or another control character, which "
                    + "a unit or desktop entry cannot hold; \(plainerFolderAdvice)"
            )
        }
    }
}
