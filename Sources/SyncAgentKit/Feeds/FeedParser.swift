/// Reads one feed's body, fed in chunks as it arrives, into a ``Feed``: the streaming,
/// hostile-input-safe parser the feed fetch feeds from curl's write callback.
///
/// ```swift
/// let parser = FeedParser(title: "ATP", url: "https://atp.fm/rss")
/// try parser.parse(chunk)        // as often as bytes arrive
/// let feed = try parser.finish() // when the body is over
/// ```
///
/// A body that is not a feed is a ``FeedError`` whose message names the feed and the cause —
/// empty, a web page, not XML, cut off, another kind of XML, or over a ``FeedLimits`` cap —
/// and never an empty ``Feed``. After an error every call throws it again.
///
/// Not thread-safe: feed one parser from one thread.
public final class FeedParser {
    private var builder: FeedBuilder
    private var expat: ExpatParser
    private let subject: String
    private let url: String?
    private let limits: FeedLimits
    /// The body so far, kept for one replay when it uses a prefix it never declares.
    private var body: [UInt8] = []
    /// Whether the body was replayed with declarations added.
    private var replayed = false
    /// The start of the body, to tell a web page or an empty body from broken XML.
    private var head: [UInt8] = []
    /// Whether every byte so far is white space (or part of a byte order mark).
    private var onlyWhitespace = true
    /// A syntax error not yet explained: it is explained from the first ``headBytes`` of the
    /// body (or the whole body when shorter), so the same body gives the same error however
    /// it is cut into chunks.
    private var pending: ExpatParser.SyntaxError?
    private var failure: FeedError?
    private var finished = false
    /// The first bytes, held back until there are enough for expat to tell the encoding
    /// (a byte order mark or `<?xm` in UTF-8, UTF-16 or UTF-32): given one byte alone, expat
    /// guesses differently than given four, and the same body must parse the same however
    /// it is cut.
    private var prelude: [UInt8]? = []

    /// How many bytes expat needs to recognise the encoding.
    private static let preludeBytes = 4

    /// How many bytes of the body are kept to recognise a web page.
    private static let headBytes = 1024

    /// A parser for the feed the user calls `title`, fetched from `url` (the base for relative
    /// URLs; nil when unknown, and then relative enclosures are dropped).
    public init(title: String, url: String?, limits: FeedLimits = .standard) {
        subject = "the feed \(TextQuoting.quoted(title))" + (url.map { " at \(TextQuoting.quoted($0))" } ?? "")
        builder = FeedBuilder(feedURL: url, subject: "the feed \(TextQuoting.quoted(title))", limits: limits)
        expat = ExpatParser(limits: limits, sink: builder)
        self.url = url
        self.limits = limits
    }

    /// Parses a whole body at once.
    public static func parse(_ body: [UInt8], title: String, url: String?, limits: FeedLimits = .standard) throws(FeedError) -> Feed {
        let parser = FeedParser(title: title, url: url, limits: limits)
        try parser.parse(body)
        return try parser.finish()
    }

    /// Parses the next chunk of the body.
    public func parse(_ chunk: UnsafeRawBufferPointer) throws(FeedError) {
        if let failure { throw failure }
        precondition(!finished, "FeedParser: a chunk after finish()")
        note(chunk)
        if !replayed, body.count <= limits.maximumBytes { body += chunk }
        if let pending {
            // Only the head is still read, to explain the error.
            if head.count >= Self.headBytes { throw explain(pending, atEnd: false) }
            return
        }
        do throws(ExpatParser.Failure) {
            if var prelude {
                prelude += chunk
                guard prelude.count >= Self.preludeBytes else {
                    self.prelude = prelude
                    return
                }
                self.prelude = nil
                try expat.parse(prelude, isFinal: false)
            } else {
                try expat.parse(chunk, isFinal: false)
            }
        } catch {
            guard let failure = recover(from: error, atEnd: false) else { return }
            if let error = fail(failure, atEnd: false) { throw error }
        }
    }

    /// Parses the next chunk of the body.
    public func parse(_ chunk: [UInt8]) throws(FeedError) {
        var failure: FeedError?
        chunk.withUnsafeBytes { bytes in
            do throws(FeedError) {
                try parse(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Ends the body and returns the feed it held.
    public func finish() throws(FeedError) -> Feed {
        if let failure { throw failure }
        precondition(!finished, "FeedParser: finish() twice")
        finished = true
        if let pending { throw explain(pending, atEnd: true) }
        do throws(ExpatParser.Failure) {
            if let prelude {
                self.prelude = nil
                try expat.parse(prelude, isFinal: false)
            }
            try expat.parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
        } catch {
            guard let failure = recover(from: error, atEnd: true) else { return builder.feed }
            // At the end nothing waits: fail always has the error.
            throw fail(failure, atEnd: true)!
        }
        return builder.feed
    }

    /// The prefixes feeds use without declaring them, with the namespace each stands for.
    private static let conventionalPrefixes: [(prefix: String, uri: String)] = [
        ("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"), ("media", "http://search.yahoo.com/mrss/"),
        ("atom", FeedNamespace.atom), ("dc", FeedNamespace.dublinCore), ("content", "http://purl.org/rss/1.0/modules/content/"),
        ("rdf", FeedNamespace.rdf), ("googleplay", "http://www.google.com/schemas/play-podcasts/1.0"),
        ("podcast", "https://podcastindex.org/namespace/1.0"),
    ]

    /// Real feeds use `itunes:` or `media:` without declaring them, which namespace mode
    /// refuses. Once per body, such a failure replays the body so far with the conventional
    /// prefixes the root does not declare itself added to its start tag; nil when that worked,
    /// else the failure to report (an unknown prefix still fails).
    private func recover(from failure: ExpatParser.Failure, atEnd: Bool) -> ExpatParser.Failure? {
        guard case .syntax(let syntax) = failure, syntax.unboundPrefix, !replayed, let offset = expat.rootTagOffset,
              offset < body.count, !body.prefix(4).contains(0), !body.starts(with: [0xFE, 0xFF]), !body.starts(with: [0xFF, 0xFE])
        else { return failure }
        replayed = true
        var nameEnd = offset + 1
        while nameEnd < body.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(body[nameEnd]) { nameEnd += 1 }
        let declared = expat.rootPrefixes
        let declarations = Self.conventionalPrefixes.filter { !declared.contains($0.prefix) }.map { " xmlns:\($0.prefix)=\"\($0.uri)\"" }.joined()
        let replay = Array(body[..<nameEnd]) + Array(declarations.utf8) + Array(body[nameEnd...])
        body = []
        builder = FeedBuilder(feedURL: url, subject: builder.subject, limits: limits)
        expat = ExpatParser(limits: limits, sink: builder)
        do throws(ExpatParser.Failure) {
            try expat.parse(replay, isFinal: false)
            if atEnd { try expat.parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true) }
            return nil
        } catch {
            return error
        }
    }

    private func note(_ chunk: UnsafeRawBufferPointer) {
        if head.count < Self.headBytes {
            head += chunk.prefix(Self.headBytes - head.count)
        }
        if onlyWhitespace {
            onlyWhitespace = !chunk.contains { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        }
    }

    /// The error to throw for `failure`; nil when a syntax error waits for the rest of the head.
    private func fail(_ failure: ExpatParser.Failure, atEnd: Bool) -> FeedError? {
        switch failure {
        case .refused(let refusal):
            let error = FeedError(refusal.code, "\(subject) \(refusal.message)")
            self.failure = error
            return error
        case .syntax(let syntax):
            guard atEnd || head.count >= Self.headBytes else {
                pending = syntax
                return nil
            }
            return explain(syntax, atEnd: atEnd)
        }
    }

    private func explain(_ syntax: ExpatParser.SyntaxError, atEnd: Bool) -> FeedError {
        let error: FeedError
        if atEnd && onlyWhitespace {
            error = FeedError(.empty, "\(subject) is empty: the server sent no feed")
        } else if looksLikeHTML {
            error = FeedError(.webPage, "\(subject) is a web page, not a feed (a captive portal or an error page answers instead of the feed)")
        } else if syntax.endedEarly {
            error = FeedError(.truncated, "\(subject) ends early, at line \(syntax.line), column \(syntax.column): the body was cut off")
        } else {
            error = FeedError(.notXML, "\(subject) is not valid XML: \(syntax.reason) at line \(syntax.line), column \(syntax.column)")
        }
        failure = error
        return error
    }

    /// Whether the body starts like HTML, which is rarely well-formed XML.
    private var looksLikeHTML: Bool {
        let text = String(decoding: head.map(\.asciiLowercased), as: UTF8.self)
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || text.contains("<html") || text.contains("<head>") || text.contains("<body")
    }
}
