import ArgumentParser
import Testing
@testable import syncagent

/// Every command states its name. Without one, argument-parser derives it from the type's
/// name with `String(describing:)`, and it does so for every subcommand on every start
/// (`--version` and `check` included): 0.7 million instructions a subcommand, a fifth of
/// what the parser costs (docs/benchmarks.md).
struct CommandNameTests {
    @Test func everyCommandNamesItself() {
        let commands: [any ParsableCommand.Type] = [SyncAgent.self] + SyncAgent.configuration.subcommands
        for command in commands {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName in its CommandConfiguration")
        }
    }

    @Test func theNamesAreTheOnesUsersType() {
        let names = SyncAgent.configuration.subcommands.map { $0._commandName }
        #expect(names == ["check", "status", "pause", "resume", "stop", "start", "reset", "install", "uninstall"])
    }
}
