extension ManifestValidator {
    /// How a found value reads in a message: its text quoted, or what kind of node it is.
    static func describe(_ node: YAMLNode) -> String {
        switch node.value {
        case .scalar("", isPlain: true): "nothing"
        case .scalar(let text, isPlain: true): TextQuoting.quoted(text)
        case .scalar(let text, isPlain: false): "the quoted text \(TextQuoting.quoted(text))"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// The text of a scalar; reports anything else, or empty text, as not `expected`.
    mutating func text(_ node: YAMLNode, for key: String, expected: String) -> String? {
        if case .scalar(let text, _) = node.value, !text.isEmpty {
            return text
        }
        let code: ManifestError.Code = if case .scalar("", isPlain: false) = node.value { .badValue } else { .wrongType }
        report(code, at: node.mark, "expected \(expected) for `\(key)`, found \(Self.describe(node))")
        return nil
    }

    /// An unquoted whole number within `range`.
    mutating func wholeNumber(_ node: YAMLNode, for key: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let text, let isPlain) = node.value, isPlain, Self.isDigits(text) else {
            report(.wrongType, at: node.mark, "expected a whole number for `\(key)`, found \(Self.describe(node))\(Self.unquoteHint(node, when: Self.isDigits))")
            return nil
        }
        guard let value = Int(text), range.contains(value) else {
            report(.badValue, at: node.mark, "`\(key)` must be between \(range.lowerBound) and \(range.upperBound), found \(text)")
            return nil
        }
        return value
    }

    /// A size such as `500MB` or `16GB` (see ``ByteSizeText``), at least one byte.
    mutating func byteSize(_ node: YAMLNode, for key: String) -> Int64? {
        guard case .scalar(let text, _) = node.value, let size = ByteSizeText.parse(text), size > 0 else {
            report(.badValue, at: node.mark, "expected a size like \"500MB\" or \"16GB\" for `\(key)` (units \(ByteSizeText.units)), found \(Self.describe(node))")
            return nil
        }
        return size
    }

    /// An unquoted `true` or `false`.
    mutating func boolean(_ node: YAMLNode, for key: String) -> Bool? {
        let isBoolean = { (text: String) in text == "true" || text == "false" }
        guard case .scalar(let text, true) = node.value, isBoolean(text) else {
            report(.wrongType, at: node.mark, "expected true or false for `\(key)`, found \(Self.describe(node))\(Self.unquoteHint(node, when: isBoolean))")
            return nil
        }
        return text == "true"
    }

    /// The entries of a mapping; reports anything else, showing `example`.
    mutating func mapping(_ node: YAMLNode, for key: String, example: String) -> [YAMLMappingEntry]? {
        guard case .mapping(let entries) = node.value else {
            report(.wrongType, at: node.mark, "expected a mapping such as \(example) for `\(key)`, found \(Self.describe(node))")
            return nil
        }
        return entries
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// "; remove the quotes" when quoted text would have been right without them.
    private static func unquoteHint(_ node: YAMLNode, when isRight: (String) -> Bool) -> String {
        if case .scalar(let text, false) = node.value, isRight(text) { return "; remove the quotes" }
        return ""
    }
}
