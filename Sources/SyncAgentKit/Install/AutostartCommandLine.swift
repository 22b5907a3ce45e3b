/// How an executable's path is written into a systemd unit's `ExecStart=` and a desktop
/// entry's `Exec=` and `TryExec=`, and read back.
///
/// Both formats give meaning to spaces, quotes, backslashes, `%` and `$`; a path is quoted
/// only when it needs to be, so the usual `/usr/bin/syncagent` stays plain.
enum AutostartCommandLine {
    /// The path as the single word of a unit's `ExecStart=`: `%` specifiers doubled, and
    /// in double quotes when it holds a space. systemd expands no `$` variables in the
    /// executable, and refuses quotes and backslashes in it (``systemdRefuses(_:)``), so
    /// nothing inside the quotes needs escaping.
    /// - SeeAlso: https://www.freedesktop.org/software/systemd/man/systemd.service.html#Command%20lines
    static func systemdExec(_ path: String) -> String {
        let word = path.replacing("%", with: "%%")
        return word.contains(" ") || word.contains(";") ? "\"" + word + "\"" : word
    }

    /// Whether systemd refuses `path` as an executable: it holds a quote or a backslash
    /// (systemd's `string_is_safe`, "Executable name contains special characters").
    static func systemdRefuses(_ path: String) -> Bool {
        path.contains { $0 == "\"" || $0 == "'" || $0 == "\\" }
    }

    /// The path as the whole value of a desktop entry's `Exec=`: quoted when it holds a
    /// reserved character, `%` doubled, then escaped as a desktop-entry string.
    /// - SeeAlso: https://specifications.freedesktop.org/desktop-entry-spec/latest/exec-variables.html
    static func desktopExec(_ path: String) -> String {
        var argument = path.replacing("%", with: "%%")
        if argument.contains(where: desktopReserved.contains) {
            var quoted = ""
            for character in argument {
                if character == "\"" || character == "`" || character == "$" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            argument = "\"" + quoted + "\""
        }
        return desktopString(argument)
    }

    /// `text` as a desktop-entry string value: a backslash is written as two. Control
    /// characters never get here (``unsupportedCharacter(in:)``).
    static func desktopString(_ text: String) -> String {
        text.replacing("\\", with: "\\\\")
    }

    /// A character no path in either file may hold: a newline or another control
    /// character would end or corrupt the line. `nil` when the path is fine.
    static func unsupportedCharacter(in path: String) -> Character? {
        path.first { character in character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } }
    }

    /// The path back from an `ExecStart=` value that ``systemdExec(_:)`` wrote; other
    /// values come back as written.
    static func path(fromSystemdExec value: String) -> String {
        var word = value
        if word.count >= 2, word.hasPrefix("\""), word.hasSuffix("\"") {
            word = String(word.dropFirst().dropLast())
        }
        return word.replacing("%%", with: "%")
    }

    /// The path back from an `Exec=` value that ``desktopExec(_:)`` wrote; other values
    /// come back as written, string escapes undone.
    static func path(fromDesktopExec value: String) -> String {
        var argument = unescapingBackslashes(value)
        if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
            argument = unescapingBackslashes(String(argument.dropFirst().dropLast()))
        }
        return argument.replacing("%%", with: "%")
    }

    /// The characters that make the desktop entry spec require quotes around an argument.
    private static let desktopReserved: Set<Character> = [
        " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]

    /// `\x` becomes `x` for every character `x`: the one escape desktop entries use here.
    private static func unescapingBackslashes(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if !escaping && character == "\\" {
                escaping = true
            } else {
                result.append(character)
                escaping = false
            }
        }
        return result
    }
}
