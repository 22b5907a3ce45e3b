import ArgumentParser
import SyncAgentKit

extension SyncAgent {
    /// `syncagent start [TITLE…]`, carried out by the running agent.
    struct Start: AgentControlCommand {
        static let command = ControlRequest.Command.start
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start now, outside the window and whatever the power or network (\"Start All Downloads\").")

        @OptionGroup var files: TitleArguments
        @OptionGroup var locations: LocationOptions
    }
}
