import ArgumentParser
import FoundationEssentials
import SyncAgentKit

extension SyncAgent {
    /// `syncagent install`: start syncagent at every login for this user.
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Start syncagent at every login for this user.",
            discussion: """
                Where a systemd user instance runs, writes the unit \
                $XDG_CONFIG_HOME/systemd/user/syncagent.service and enables and starts it. \
                Where systemd's user instance does not answer, also enables the unit by hand for \
                the next login and writes the XDG autostart entry \
                $XDG_CONFIG_HOME/autostart/syncagent.desktop for sessions without systemd (without \
                systemd, the entry alone), and says that nothing was started now. \
                Both start this syncagent binary. Running it again changes nothing. A file that \
                was edited by hand is left as it is (exit status 3) unless --force is given.
                """
        )

        @Flag(name: .long, help: "Replace a unit or autostart entry that was edited by hand.")
        var force = false

        func run() throws {
            let changes: [AutostartChange]
            do {
                changes = try Autostart.currentUser(environment: ProcessInfo.processInfo.environment).install(force: force)
            } catch {
                throw CommandFailure(error.message, exitCode: .environment)
            }
            for change in changes { print(change) }
        }
    }
}
