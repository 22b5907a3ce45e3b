import ArgumentParser
import SyncAgentKit

extension SyncAgent {
    /// `syncagent stop [TITLE…]`, carried out by the running agent.
    struct Stop: AgentControlCommand {
        static let command = ControlRequest.Command.stop
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop transfers and delete what has arrived; start begins again from zero.")

        @OptionGroup var files: TitleArguments
        @OptionGroup var locations: LocationOptions
    }
}
