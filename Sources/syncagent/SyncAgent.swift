import ArgumentParser
import SyncAgentKit

/// The `syncagent` command: the root of every subcommand.
@main
struct SyncAgent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncagent",
        abstract: "Keep a folder in step with a list of files on the web."
    )

    func run() throws {}
}
