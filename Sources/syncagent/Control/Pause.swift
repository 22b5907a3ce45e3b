import ArgumentParser
import SyncAgentKit

extension SyncAgent {
    /// `syncagent pause [TITLE…]`, carried out by the running agent.
    struct Pause: AgentControlCommand {
        static let command = ControlRequest.Command.pause
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause transfers, keeping what has arrived; resume continues from there.")

        @OptionGroup var files: TitleArguments
        @OptionGroup var locations: LocationOptions
    }
}
