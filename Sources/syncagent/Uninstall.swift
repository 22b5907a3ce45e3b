import ArgumentParser
import FoundationEssentials
import SyncAgentKit

extension SyncAgent {
    /// `syncagent uninstall`: stop starting syncagent at login for this user.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Stop starting syncagent at login for this user.",
            discussion: """
                Stops and disables the systemd user unit where systemd runs, and removes \
                $XDG_CONFIG_HOME/systemd/user/syncagent.service and \
                $XDG_CONFIG_HOME/autostart/syncagent.desktop as install wrote them; a file edited \
                since, or not written by install, is left (the unit disabled). Running it again \
                changes nothing. \
                The manifest, the saved state and the downloaded files stay.
                """
        )

        func run() throws {
            let changes: [AutostartChange]
            do {
                changes = try Autostart.currentUser(environment: ProcessInfo.processInfo.environment).uninstall()
            } catch {
                throw CommandFailure(error.message, exitCode: .environment)
            }
            for change in changes { print(change) }
        }
    }
}
