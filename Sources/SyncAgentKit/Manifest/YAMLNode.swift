/// A place in a YAML text, as a person counts it: both numbers start at 1.
///
/// libyaml counts from 0; ``LibYAMLParser`` converts, so nothing above it sees 0-based marks.
struct YAMLMark: Sendable, Hashable, Comparable {
    /// The line, starting at 1.
    var line: Int
    /// The character in the line, starting at 1.
    var column: Int

    static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One node of a YAML document: a scalar, a mapping or a sequence, with where it starts.
///
/// This is all a manifest needs from YAML. Anchors, aliases, tags and complex keys are refused
/// by ``YAMLReader`` before a tree is built, so they have no place here.
struct YAMLNode: Sendable, Equatable {
    /// What the node holds.
    enum Value: Sendable, Equatable {
        /// Text. `isPlain` is false when it was quoted or a block scalar (`|`, `>`): only plain
        /// text can be a number, a boolean or nothing at all.
        case scalar(String, isPlain: Bool)
        /// A list of nodes, in document order.
        case sequence([YAMLNode])
        /// Keys and their values, in document order, each key once.
        case mapping([YAMLMappingEntry])
    }

    /// What the node holds.
    var value: Value
    /// Where the node starts.
    var mark: YAMLMark

    /// Whether this is plain text with nothing in it (`key:` with no value): YAML's null.
    var isNothing: Bool {
        if case .scalar("", isPlain: true) = value { return true }
        return false
    }
}

/// One `key: value` pair of a mapping.
struct YAMLMappingEntry: Sendable, Equatable {
    /// The key's text.
    var key: String
    /// Where the key starts.
    var keyMark: YAMLMark
    /// The value the key maps to.
    var value: YAMLNode
}
