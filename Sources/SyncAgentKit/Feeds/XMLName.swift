/// An element or attribute name as expat's namespace mode reports it: the namespace URI (empty
/// for none) and the local name. Feeds are matched on these, never on prefixes, since any
/// prefix may stand for any namespace.
struct XMLName: Hashable, Sendable {
    /// The namespace URI, empty when the name has none.
    var namespace: String
    /// The name without prefix.
    var local: String

    /// The character expat puts between URI and local name: U+0001 can appear in neither a
    /// URI nor a name in XML 1.0, so the split is never ambiguous.
    static let separator: UInt8 = 0x01

    /// A name as given.
    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// A name from expat's "URI\u{1}local" (or "local") form.
    init(expat name: UnsafePointer<CChar>) {
        let text = String(cString: name)
        if let split = text.utf8.lastIndex(of: Self.separator) {
            namespace = String(text[..<split])
            local = String(text[text.utf8.index(after: split)...])
        } else {
            namespace = ""
            local = text
        }
    }

    /// The expat form of this name, for comparing with attribute names without converting them.
    var expatForm: String {
        namespace.isEmpty ? local : namespace + "\u{1}" + local
    }
}

/// The namespaces feeds use, by URI.
enum FeedNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xhtml = "http://www.w3.org/1999/xhtml"

    /// Whether `uri` is Media RSS: with or without its final slash, as feeds write both.
    static func isMediaRSS(_ uri: String) -> Bool {
        uri == "http://search.yahoo.com/mrss/" || uri == "http://search.yahoo.com/mrss"
    }

    /// Whether `uri` is Apple's podcast namespace, which feeds spell in more than one case.
    static func isITunes(_ uri: String) -> Bool {
        uri.lowercased() == "http://www.itunes.com/dtds/podcast-1.0.dtd"
    }

    /// Whether `uri` is Atom (1.0, or the 0.3 draft some old feeds still use).
    static func isAtom(_ uri: String) -> Bool {
        uri == atom || uri == atom03
    }

    /// Whether `uri` is one RSS's own elements may be in: none (RSS 0.9x, 2.0) or RSS 1.0/0.90.
    static func isRSS(_ uri: String) -> Bool {
        uri.isEmpty || uri == rss10 || uri == rss090
    }
}
