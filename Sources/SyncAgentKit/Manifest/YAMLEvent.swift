/// One event of libyaml's event API, copied out of C memory into plain Swift.
struct YAMLEvent: Sendable, Equatable {
    /// What happened in the text.
    enum Kind: Sendable, Equatable {
        case streamStart
        case streamEnd
        case documentStart
        case documentEnd
        /// `*name`: a reference to an anchored node.
        case alias
        /// Text; `isPlain` is false for quoted and block scalars.
        case scalar(String, isPlain: Bool)
        case sequenceStart
        case sequenceEnd
        case mappingStart
        case mappingEnd
    }

    /// What happened in the text.
    var kind: Kind
    /// Where it starts.
    var mark: YAMLMark
    /// Whether the node carries an anchor (`&name`).
    var hasAnchor: Bool
    /// The node's explicit tag (`!name`, `!!str`), if it has one.
    var tag: String?
}
