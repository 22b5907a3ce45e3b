/// How syncagent's terminal output looks: whether it is coloured, and which symbols it uses.
///
/// Colour is added only after text has been cut and padded to its columns: the escape
/// sequences take no room on screen, and measuring them would misalign every row.
public struct TerminalStyle: Sendable, Equatable {
    /// The colours (SGR attributes) syncagent uses, each for one meaning.
    public enum Color: String, Sendable {
        /// Success: a file put in place.
        case green = "32"
        /// Failure.
        case red = "31"
        /// Waiting: a retry, a window, a hold.
        case yellow = "33"
        /// Progress bars.
        case cyan = "36"
        /// What matters less: unchanged files, details.
        case dim = "2"
        /// What matters most: the overall line, the summary.
        case bold = "1"
    }

    /// Whether ANSI colour sequences are written.
    public var colors: Bool
    /// The symbols the locale can show.
    public var symbols: TerminalSymbols

    /// A style; by default, no colour and Unicode symbols (what tests and pipes expect).
    public init(colors: Bool = false, symbols: TerminalSymbols = .unicode) {
        self.colors = colors
        self.symbols = symbols
    }

    /// The style for output to a descriptor that is a terminal or not, under `choice` and the
    /// environment's `NO_COLOR`, `TERM` and locale.
    public static func decide(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(
            colors: choice.allowsColor(isTerminal: isTerminal, environment: environment),
            symbols: .forLocale(environment: environment)
        )
    }

    /// `text` in `color`, or as it is when colours are off or it is empty.
    public func paint(_ text: String, _ color: Color) -> String {
        guard colors, !text.isEmpty else { return text }
        return "\u{1B}[\(color.rawValue)m" + text + "\u{1B}[0m"
    }
}

/// `--color auto|always|never`: whether output is coloured.
public enum ColorChoice: String, Sendable, CaseIterable {
    /// Colour on a terminal, unless `NO_COLOR` is set (to any value) or `TERM` is `dumb`.
    case auto
    /// Colour whatever the output is, as asked on the command line: an explicit request
    /// wins over `NO_COLOR`, as no-color.org says command-line flags should.
    case always
    /// Never colour.
    case never

    /// Whether this choice colours output to a terminal or not, in `environment`.
    public func allowsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        }
    }
}
