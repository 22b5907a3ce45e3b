/// Shows a value a person wrote inside a message: quoted, escaped, and cut short when long.
enum TextQuoting {
    /// Values longer than this many characters are shortened with "…".
    static let maximumShownLength = 60

    /// `text` in double quotes, with quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumShownLength {
                shown += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": shown += "\\\""
            case "\\": shown += "\\\\"
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case _ where scalar.properties.generalCategory == .control:
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return "\"" + shown + "\""
    }
}
