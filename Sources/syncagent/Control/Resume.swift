import ArgumentParser
import SyncAgentKit

extension SyncAgent {
    /// `syncagent resume [TITLE…]`, carried out by the running agent.
    struct Resume: AgentControlCommand {
        static let command = ControlRequest.Command.resume
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume paused files (a Range request continues each one).")

        @OptionGroup var files: TitleArguments
        @OptionGroup var locations: LocationOptions
    }
}
