/// Something in a YAML text that the reader refuses, with where it is and a sentence saying why.
struct YAMLProblem: Error, Sendable, Equatable {
    /// Which kind of problem it is.
    enum Kind: Sendable, Equatable {
        /// libyaml could not parse the text (bad indentation, a tab, an unclosed quote…).
        case syntax
        /// The bytes are not UTF-8.
        case encoding
        /// A raw control character (other than tab and line breaks) is in the text.
        case controlCharacter
        /// An anchor, alias, tag, complex key or second document: YAML a manifest never needs.
        case unsupported
        /// Collections nested deeper than ``YAMLReader/maximumDepth``.
        case tooDeep
        /// A mapping names one key twice.
        case duplicateKey
        /// libyaml ran out of memory.
        case outOfMemory
    }

    /// Which kind of problem it is.
    var kind: Kind
    /// Where the problem is.
    var mark: YAMLMark
    /// A sentence for a person: lowercase start, no trailing period.
    var message: String
}
