import ArgumentParser
import FoundationEssentials
import SyncAgentKit

/// `--color`'s values. What swift-argument-parser's defaults give for a `CaseIterable` string
/// enum, spelled out: the defaults reach the same strings through key paths and generic
/// descriptions, which the parser asks for as it builds `--color` at every start of `--once`
/// and `status` (0.8 million instructions, conformance look-ups mostly).
extension ColorChoice: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// None: the values explain themselves in the option's help.
    public static var allValueDescriptions: [String: String] { [:] }
    public var defaultValueDescription: String { rawValue }
}

/// `--color auto|always|never`, for the commands that draw on a terminal (`--once`, `status`).
struct ColorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "When to colour the output.",
        discussion: "auto colours a terminal, unless NO_COLOR is set (to anything) or TERM is dumb.",
        valueName: "when"
    ))
    var color: ColorChoice?

    /// The style for `output`: colour as chosen, symbols as the locale of `environment` can
    /// show them.
    func style(for output: FileDescriptorOutput, environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalStyle {
        Self.style(color, for: output, environment: environment)
    }

    /// The style for `output` given `--color` (`nil`: not given, which is `auto`), for a
    /// command line read without the parser (``OnceCommandLine``).
    static func style(_ color: ColorChoice?, for output: FileDescriptorOutput, environment: [String: String]) -> TerminalStyle {
        TerminalStyle.decide(color ?? .auto, isTerminal: output.isTerminal, environment: environment)
    }
}
