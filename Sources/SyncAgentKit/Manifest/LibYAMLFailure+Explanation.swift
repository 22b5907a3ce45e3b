extension LibYAMLFailure {
    /// Turns libyaml's terse report into a sentence a person can act on, at the place to look.
    ///
    /// `bytes` is the text libyaml was given: reader errors only know a byte offset, and the
    /// scanner's marks need the character they point at (a tab reads differently from an `@`).
    func explanation(in bytes: [UInt8]) -> YAMLProblem {
        switch kind {
        case .memory:
            return YAMLProblem(kind: .outOfMemory, mark: YAMLMark(line: 1, column: 1), message: "out of memory while reading the manifest")
        case .reader:
            return readerExplanation(in: bytes)
        case .scanner, .parser:
            return syntaxExplanation(in: bytes)
        }
    }

    private func readerExplanation(in bytes: [UInt8]) -> YAMLProblem {
        switch problem {
        case "control characters are not allowed":
            let mark = TextPosition.mark(ofByteOffset: problemOffset, in: bytes)
            return YAMLProblem(kind: .controlCharacter, mark: mark, message: "control character \(Self.codePoint(problemValue)) is not allowed in a manifest; remove it")
        case "input is too long":
            return YAMLProblem(kind: .syntax, mark: YAMLMark(line: 1, column: 1), message: "the manifest is too long for libyaml to read")
        default:
            // Every other reader error is a UTF-8 decoding failure. A bad trailing byte is
            // reported where it is; the character it belongs to starts a little earlier.
            var offset = min(problemOffset, bytes.count)
            if problem == "invalid trailing UTF-8 octet" {
                while offset > 0, offset > problemOffset - 4, bytes[offset - 1] & 0xC0 == 0x80 { offset -= 1 }
                if offset > 0 { offset -= 1 }
            }
            let mark = TextPosition.mark(ofByteOffset: offset, in: bytes)
            let found = offset < bytes.count ? " (found byte \(Self.hex(bytes[offset])))" : ""
            return YAMLProblem(kind: .encoding, mark: mark, message: "the manifest is not valid UTF-8\(found); save it as UTF-8 text")
        }
    }

    private func syntaxExplanation(in bytes: [UInt8]) -> YAMLProblem {
        let character = TextPosition.character(atIndex: problemCharacterIndex, in: bytes)
        if character == "\t" || problem.hasPrefix("found a tab character") {
            return syntax(at: problemMark, "tabs cannot indent YAML; use spaces")
        }
        switch problem {
        case "mapping values are not allowed in this context":
            return syntax(at: problemMark, "a \":\" is not allowed here; check the indentation, or put a value that contains \": \" in quotes")
        case "did not find expected key":
            return syntax(at: problemMark, "expected a key here, lined up with the mapping that starts on line \(contextMark.line); check the indentation")
        case "did not find expected '-' indicator":
            return syntax(at: problemMark, "expected a list item (\"- \") here, lined up with the list that starts on line \(contextMark.line); check the indentation")
        case "could not find expected ':'":
            return syntax(at: contextMark, "expected a \":\" after this key; write \"key: value\"")
        case "found unexpected end of stream" where context?.contains("quoted scalar") == true:
            return syntax(at: contextMark, "this quoted text is never closed; add the closing quote")
        case "found unexpected end of stream":
            return syntax(at: problemMark, "the manifest ends in the middle of a value")
        case "found unknown escape character":
            return syntax(at: problemMark, "unknown escape sequence in double-quoted text; write a backslash as \"\\\\\", or use single quotes")
        case "did not find expected ',' or ']'":
            return syntax(at: problemMark, "expected \",\" or \"]\" to go on with the list that starts on line \(contextMark.line), column \(contextMark.column)")
        case "did not find expected ',' or '}'":
            return syntax(at: problemMark, "expected \",\" or \"}\" to go on with the mapping that starts on line \(contextMark.line), column \(contextMark.column)")
        case "did not find expected node content":
            return syntax(at: problemMark, "expected a value here")
        case "block sequence entries are not allowed in this context":
            return syntax(at: problemMark, "a list cannot start on the same line as its key; put each \"- \" item on a line of its own")
        case "found character that cannot start any token":
            let shown = character.map { TextQuoting.quoted(String($0)) } ?? "this character"
            return syntax(at: problemMark, "\(shown) cannot start a value; put the value in quotes")
        case "did not find expected <document start>":
            return syntax(at: problemMark, "expected the manifest to end here; check the indentation of this line")
        default:
            let during = context.map { " \($0)" } ?? ""
            return syntax(at: problemMark, "invalid YAML: \(problem)\(during)")
        }
    }

    private func syntax(at mark: YAMLMark, _ message: String) -> YAMLProblem {
        YAMLProblem(kind: .syntax, mark: mark, message: message)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    private static func codePoint(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
