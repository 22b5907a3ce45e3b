/// The few non-letter characters syncagent draws with, in two sets: Unicode for a terminal
/// whose locale's character set is UTF-8, plain ASCII for any other (`LC_ALL=C`, a Latin-1
/// console), where "✓" would come out as three bytes of mojibake.
///
/// Each ASCII stand-in takes as many columns as the text around it expects: the marks of
/// finished lines are one column in both sets, so lines still line up.
public struct TerminalSymbols: Sendable, Equatable {
    /// Marks a file put in place: "✓" or "+".
    public var done: String
    /// Marks a file the server said was current: "=" in both sets.
    public var unchanged: String
    /// Marks a file that failed: "✗" or "!".
    public var failed: String
    /// Ends text cut to fit: "…" (one column) or "..." (three).
    public var ellipsis: String
    /// Stands for a value not known yet, such as an ETA: "—" or "-".
    public var unknown: String
    /// Points from a file to where it goes: "→" or "->".
    public var arrow: String

    /// The Unicode set, for UTF-8 locales.
    public static let unicode = TerminalSymbols(done: "✓", unchanged: "=", failed: "✗", ellipsis: "…", unknown: "—", arrow: "→")

    /// The ASCII set, for every other locale.
    public static let ascii = TerminalSymbols(done: "+", unchanged: "=", failed: "!", ellipsis: "...", unknown: "-", arrow: "->")

    /// The set the locale of `environment` can show: ``unicode`` when its character set is
    /// UTF-8, ``ascii`` otherwise.
    public static func forLocale(environment: [String: String]) -> TerminalSymbols {
        localeIsUTF8(environment: environment) ? .unicode : .ascii
    }

    /// Whether the locale `environment` selects for character types uses UTF-8.
    ///
    /// POSIX's order decides which variable counts: `LC_ALL`, then `LC_CTYPE`, then `LANG`,
    /// the first one set and not empty; none at all is the POSIX locale, which is ASCII. The
    /// character set is the part after the "." (`en_US.UTF-8`, `C.utf8`), before any "@".
    /// Read from the environment rather than `nl_langinfo(CODESET)`, so a UTF-8 locale that
    /// was never generated on this machine still gets the symbols its terminal can show.
    public static func localeIsUTF8(environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        guard let dot = name.firstIndex(of: ".") else { return false }
        let codeset = name[name.index(after: dot)...].prefix { $0 != "@" }
        let normalized = codeset.lowercased().filter { $0 != "-" && $0 != "_" }
        return normalized == "utf8"
    }
}
