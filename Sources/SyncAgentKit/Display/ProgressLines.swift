import FoundationEssentials

/// The one-line messages of `syncagent --once`: the lines a terminal board scrolls up as
/// files finish, and the lines written instead of a board when output is not a terminal.
///
/// Every title, reason and URL is passed through ``ProgressText/sanitized(_:)``, so each
/// message is exactly one line with no control characters. Colour, if the style has it, is
/// added last, around words already placed.
public enum ProgressLines {
    /// A finished file on the terminal: "✓ Title  28.6 MB", "= Title  unchanged",
    /// "✗ Title  reason (example.org)". Not cut to the terminal width: a failure's reason
    /// matters more than a tidy edge, and these lines scroll away anyway.
    ///
    /// A failure names the host it came from, unless its reason already does; with
    /// `verbose`, every line ends with the file's whole URL instead.
    public static func finished(
        title: String, outcome: TransferOutcome, style: TerminalStyle = TerminalStyle(), url: String? = nil, verbose: Bool = false
    ) -> String {
        let title = ProgressText.sanitized(title)
        let symbols = style.symbols
        switch outcome {
        case .downloaded(let bytes):
            return style.paint(symbols.done, .green) + " \(title)  \(formatByteCount(bytes))" + verboseURL(url, verbose, style)
        case .unchanged:
            return style.paint(symbols.unchanged, .dim) + " \(title)  " + style.paint("unchanged", .dim) + verboseURL(url, verbose, style)
        case .failed(let failure):
            let reason = ProgressText.sanitized(failure.message)
            return style.paint(symbols.failed, .red) + " \(title)  " + style.paint(reason, .red) + source(of: failure, url: url, verbose: verbose)
        }
    }

    /// "started  Title (28.6 MB)"; a resume adds where it continues from:
    /// "started  Title (28.6 MB, resuming at 12.3 MB)"; `verbose` adds " from URL". `url` is
    /// asked for only when the line shows it: a batch of 10,000 files prints 10,000 lines.
    public static func plainStarted(
        title: String, receivedBytes: Int64, expectedBytes: Int64?, style: TerminalStyle = TerminalStyle(),
        url: @autoclosure () -> String? = nil, verbose: Bool = false
    ) -> String {
        var line = PlainLine()
        appendPlainStarted(to: &line, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, style: style,
                           url: url(), verbose: verbose)
        return line.text
    }

    /// Appends ``plainStarted(title:receivedBytes:expectedBytes:style:url:verbose:)``'s line to
    /// `line`, as ``appendPlainFinished(to:title:outcome:elapsed:style:url:verbose:)`` does.
    public static func appendPlainStarted(
        to line: inout PlainLine, title: String, receivedBytes: Int64, expectedBytes: Int64?, style: TerminalStyle = TerminalStyle(),
        url: @autoclosure () -> String? = nil, verbose: Bool = false
    ) {
        appendVerb("started", nil, style, to: &line)
        line.append(ProgressText.sanitized(title))
        if expectedBytes != nil || receivedBytes > 0 {
            line.append(" (")
            if let expectedBytes { line.append(byteCount: expectedBytes) }
            if receivedBytes > 0 {
                if expectedBytes != nil { line.append(", ") }
                line.append("resuming at ")
                line.append(byteCount: receivedBytes)
            }
            line.append(")")
        }
        if verbose, let url = url() {
            line.append(" from ")
            line.append(ProgressText.sanitized(url))
        }
    }

    /// "done     Title  28.6 MB in 3.2 s", "unchanged Title", "failed   Title: reason
    /// (example.org)". `elapsed` is `nil` when the file's start was not seen; the time is then
    /// left out. A failure names its host, or with `verbose` its URL, as ``finished(title:outcome:style:url:verbose:)``;
    /// `url` is asked for only then.
    public static func plainFinished(
        title: String, outcome: TransferOutcome, elapsed: Duration?, style: TerminalStyle = TerminalStyle(),
        url: @autoclosure () -> String? = nil, verbose: Bool = false
    ) -> String {
        var line = PlainLine()
        appendPlainFinished(to: &line, title: title, outcome: outcome, elapsed: elapsed, style: style, url: url(), verbose: verbose)
        return line.text
    }

    /// Appends ``plainFinished(title:outcome:elapsed:style:url:verbose:)``'s line to `line`:
    /// a writer that gathers lines into one buffer makes no string for each (a 10,000-file
    /// batch writes 10,000 of them), and bytes are appended for a fraction of what appending
    /// a string to a string costs (some 350 instructions, eight times a line).
    public static func appendPlainFinished(
        to line: inout PlainLine, title: String, outcome: TransferOutcome, elapsed: Duration?, style: TerminalStyle = TerminalStyle(),
        url: @autoclosure () -> String? = nil, verbose: Bool = false
    ) {
        let title = ProgressText.sanitized(title)
        switch outcome {
        case .downloaded(let bytes):
            appendVerb("done", .green, style, to: &line)
            line.append(title)
            line.append("  ")
            line.append(byteCount: bytes)
            if let elapsed {
                line.append(" in ")
                line.append(elapsedTime: elapsed)
            }
            if verbose { line.append(verboseURL(url(), verbose, style)) }
        case .unchanged:
            appendVerb("unchanged", .dim, style, to: &line)
            line.append(title)
            if verbose { line.append(verboseURL(url(), verbose, style)) }
        case .failed(let failure):
            appendVerb("failed", .red, style, to: &line)
            line.append(title)
            line.append(": ")
            line.append(ProgressText.sanitized(failure.message))
            line.append(source(of: failure, url: url(), verbose: verbose))
        }
    }

    /// "Title: reason (example.org)": a failure on its own, as `--quiet` writes it to stderr.
    public static func failure(title: String, _ failure: TransferFailure, url: String? = nil, verbose: Bool = false) -> String {
        "\(ProgressText.sanitized(title)): \(ProgressText.sanitized(failure.message))" + source(of: failure, url: url, verbose: verbose)
    }

    /// "retrying Title in 2 s: reason".
    public static func plainRetrying(title: String, after delay: Duration, reason: String, style: TerminalStyle = TerminalStyle()) -> String {
        plain("retrying", .yellow, "\(ProgressText.sanitized(title)) in \(formatRemainingTime(delay)): \(ProgressText.sanitized(reason))", style)
    }

    /// Where a failed file comes from, as its line ends: " (URL)" with `verbose`, else
    /// " (host)" — unless the reason already names that host ("could not resolve host
    /// example.org"), the failure was this machine's own (its disk), or the URL is unknown.
    static func source(of failure: TransferFailure, url: String?, verbose: Bool) -> String {
        guard let url, failure.code != .disk else { return "" }
        if verbose { return " (\(ProgressText.sanitized(url)))" }
        guard let host = hostName(of: url), !failure.message.contains(host) else { return "" }
        return " (\(ProgressText.sanitized(host)))"
    }

    /// The host of `url`, with its port when the URL gives one: "example.org",
    /// "127.0.0.1:8080".
    public static func hostName(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return nil }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return components.port.map { "\(shownHost):\($0)" } ?? shownHost
    }

    /// "  URL" at the end of a line, with `verbose`.
    private static func verboseURL(_ url: @autoclosure () -> String?, _ verbose: Bool, _ style: TerminalStyle) -> String {
        guard verbose, let url = url() else { return "" }
        return "  " + style.paint(ProgressText.sanitized(url), .dim)
    }

    /// Appends the verb padded so the titles of most lines start in the same column, as a
    /// log reader scanning down expects, in its colour, and the space before the title.
    private static func appendVerb(_ verb: StaticString, _ color: TerminalStyle.Color?, _ style: TerminalStyle, to line: inout PlainLine) {
        // The verbs are short ASCII words: padding them needs no column count.
        let padding = 8 - verb.utf8CodeUnitCount
        if let color, style.colors {
            line.append(style.paint(verb.description + ProgressText.repeated(UInt8(ascii: " "), count: padding), color))
        } else {
            line.append(verb)
            line.append(spaces: padding)
        }
        line.append(" ")
    }

    /// The verb padded so the titles of most lines start in the same column, as a log
    /// reader scanning down expects; the padded verb in its colour, then `rest` and `tail`.
    private static func plain(_ verb: String, _ color: TerminalStyle.Color?, _ rest: String, _ style: TerminalStyle, then tail: String = "") -> String {
        // The verbs are short ASCII words: padding them needs no column count (which took
        // a sixth of a line's instructions).
        let padded = verb + ProgressText.repeated(UInt8(ascii: " "), count: 8 - verb.utf8.count)
        var line = color.map { style.paint(padded, $0) } ?? padded
        // One buffer for the whole line: each `+` made a new string (a 10,000-file batch writes
        // 10,000 lines).
        line.reserveCapacity(line.utf8.count + 1 + rest.utf8.count + tail.utf8.count)
        line += " "
        line += rest
        line += tail
        return line
    }
}
