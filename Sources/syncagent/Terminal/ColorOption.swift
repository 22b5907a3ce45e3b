import ArgumentParser
import FoundationEssentials
import SyncAgentKit

extension ColorChoice: ExpressibleByArgument {}

/// `--color auto|always|never`, for the commands that draw on a terminal (`--once`, `status`).
struct ColorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "When to colour the output.",
        discussion: "auto colours a terminal, unless NO_COLOR is set (to anything) or TERM is dumb.",
        valueName: "when"
    ))
    var color: ColorChoice?

    /// The style for `output`: colour as chosen, symbols as the locale can show them.
    func style(for output: FileDescriptorOutput) -> TerminalStyle {
        TerminalStyle.decide(color ?? .auto, isTerminal: output.isTerminal, environment: ProcessInfo.processInfo.environment)
    }
}
