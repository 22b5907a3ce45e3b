/// Turns expat's element stream into a ``Feed``: knows which elements of RSS 2.0, RSS 1.0
/// (RDF), Atom, Media RSS, iTunes and Dublin Core carry what, keeps only those fields, and
/// resolves URLs against `xml:base` as it goes.
///
/// Only the text of fields it keeps is collected (show notes never are), each bounded by
/// ``FeedLimits/maximumFieldBytes``, so memory stays in proportion to what is kept.
final class FeedBuilder: XMLEventSink {
    /// Which kind of document the root says this is.
    enum Format: Equatable {
        case rss, rdf, atom
    }

    /// What an open element is to the builder.
    private enum Role {
        case root, channel, item, mediaGroup, other
    }

    /// An open element.
    private struct Frame {
        var role: Role
        /// The base URL for this element's content: `xml:base` resolved, else the parent's.
        var base: String?
    }

    /// The fields whose text is collected.
    private enum Field {
        case feedTitle, newFeedURL, title, itunesTitle, guid, published, updated, episode, season, duration
    }

    /// An item being read.
    private struct Draft {
        var title: String?
        var itunesTitle: String?
        var guid: String?
        var about: String?
        var published: String?
        var updated: String?
        var episode: String?
        var season: String?
        var duration: String?
        /// Enclosures by source, each in document order.
        var rss: [FeedEnclosure] = []
        var atom: [FeedEnclosure] = []
        var media: [(enclosure: FeedEnclosure, isDefault: Bool)] = []
        /// Why enclosures were dropped, as phrases naming them.
        var dropped: [String] = []
    }

    private let limits: FeedLimits
    private let feedURL: String?
    private(set) var format: Format?
    private var stack: [Frame] = []
    private var draft: Draft?
    private var capture: (field: Field, depth: Int, bytes: [UInt8])?
    private var title = ""
    private var newFeedURL: String?
    private var items: [FeedItem] = []
    private var warnings: [FeedWarning] = []
    /// Warnings name the feed with this phrase.
    let subject: String

    /// A builder for the feed at `feedURL` (the base for relative URLs), named `subject` in
    /// warnings ("the feed \"ATP\"").
    init(feedURL: String?, subject: String, limits: FeedLimits) {
        self.feedURL = feedURL
        self.subject = subject
        self.limits = limits
    }

    /// The feed read so far; call once the document has ended.
    var feed: Feed {
        Feed(title: title, items: items, newFeedURL: newFeedURL, warnings: warnings)
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws(FeedError) {
        let parentBase = stack.last?.base ?? feedURL
        var base = parentBase
        if let written = attributes.value(XMLName(FeedNamespace.xml, "base")) {
            guard written.utf8.count <= limits.maximumURLBytes else { throw fieldTooLong("an xml:base") }
            base = FeedURL.resolve(written, against: parentBase) ?? parentBase
        }
        guard let parent = stack.last else {
            stack.append(Frame(role: .root, base: base))
            return try root(name)
        }
        var role = Role.other
        if capture == nil {
            role = try read(name, attributes: attributes, parent: parent.role, base: base)
        }
        stack.append(Frame(role: role, base: base))
    }

    func endElement() throws(FeedError) {
        guard let frame = stack.popLast() else { return }
        if let capture, capture.depth == stack.count {
            self.capture = nil
            store(capture.field, String(decoding: capture.bytes, as: UTF8.self))
        }
        if frame.role == .item, let draft {
            self.draft = nil
            items.append(finish(draft))
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) throws(FeedError) {
        guard capture != nil else { return }
        guard capture!.bytes.count + text.count <= limits.maximumFieldBytes else {
            throw fieldTooLong("a field")
        }
        capture!.bytes.append(contentsOf: text)
    }

    private func root(_ name: XMLName) throws(FeedError) {
        switch (name.namespace, name.local) {
        case ("", "rss"): format = .rss
        case (FeedNamespace.rdf, "RDF"): format = .rdf
        case (let namespace, "feed") where FeedNamespace.isAtom(namespace): format = .atom
        case (_, let local) where local.lowercased() == "html":
            throw FeedError(.webPage, "is a web page, not a feed (a captive portal or an error page answers instead of the feed)")
        default:
            let shown = name.namespace.isEmpty ? name.local : name.local + " in " + name.namespace
            throw FeedError(.notAFeed, "is XML but not a feed: its root element is \(TextQuoting.quoted(shown)), not rss, feed (Atom) or rdf:RDF")
        }
    }

    /// What the element `name` under a `parent` means; starts collecting text or reads an
    /// enclosure when it carries one.
    private func read(_ name: XMLName, attributes: XMLAttributes, parent: Role, base: String?) throws(FeedError) -> Role {
        let (namespace, local) = (name.namespace, name.local)
        let isAtom = FeedNamespace.isAtom(namespace)
        let ownNamespace = format == .atom ? isAtom : FeedNamespace.isRSS(namespace)
        switch parent {
        case .root where format == .atom, .channel:
            if ownNamespace, local == "title", title.isEmpty {
                collect(.feedTitle)
            } else if FeedNamespace.isITunes(namespace), local == "new-feed-url" {
                collect(.newFeedURL)
            } else if (format == .atom && isAtom && local == "entry") || (format != .atom && ownNamespace && local == "item") {
                return try startItem(attributes)
            }
        case .root:
            if ownNamespace, local == "channel" { return .channel }
            if format == .rdf, ownNamespace, local == "item" { return try startItem(attributes) }
        case .item:
            return try readItemChild(namespace, local, attributes: attributes, base: base, ownNamespace: ownNamespace)
        case .mediaGroup:
            if FeedNamespace.isMediaRSS(namespace), local == "content" { media(attributes, base: base) }
        case .other:
            break
        }
        return .other
    }

    private func startItem(_ attributes: XMLAttributes) throws(FeedError) -> Role {
        guard items.count < limits.maximumItems else {
            throw FeedError(.tooManyItems, "has more than \(limits.maximumItems) items, more than any feed needs")
        }
        draft = Draft()
        if format == .rdf { draft!.about = attributes.value(XMLName(FeedNamespace.rdf, "about")) }
        return .item
    }

    private func readItemChild(_ namespace: String, _ local: String, attributes: XMLAttributes, base: String?, ownNamespace: Bool) throws(FeedError) -> Role {
        if ownNamespace {
            switch local {
            case "title": collect(.title)
            case "guid" where format != .atom, "id" where format == .atom: collect(.guid)
            case "pubDate" where format != .atom, "published" where format == .atom, "issued" where format == .atom: collect(.published)
            case "updated" where format == .atom, "modified" where format == .atom: collect(.updated)
            case "enclosure" where format != .atom:
                enclosure(url: attributes.value(XMLName("", "url")), type: attributes.value(XMLName("", "type")),
                          length: attributes.value(XMLName("", "length")), base: base).map { draft!.rss.append($0) }
            case "link" where format == .atom && attributes.value(XMLName("", "rel")) == "enclosure":
                enclosure(url: attributes.value(XMLName("", "href")), type: attributes.value(XMLName("", "type")),
                          length: attributes.value(XMLName("", "length")), base: base).map { draft!.atom.append($0) }
            default: break
            }
        } else if FeedNamespace.isITunes(namespace) {
            switch local {
            case "title": collect(.itunesTitle)
            case "episode": collect(.episode)
            case "season": collect(.season)
            case "duration": collect(.duration)
            default: break
            }
        } else if FeedNamespace.isMediaRSS(namespace) {
            if local == "content" { media(attributes, base: base) }
            if local == "group" { return .mediaGroup }
        } else if namespace == FeedNamespace.dublinCore, local == "date" {
            collect(.published)
        }
        return .other
    }

    private func collect(_ field: Field) {
        capture = (field, stack.count, [])
    }

    private func media(_ attributes: XMLAttributes, base: String?) {
        guard let found = enclosure(url: attributes.value(XMLName("", "url")), type: attributes.value(XMLName("", "type")),
                                    length: attributes.value(XMLName("", "fileSize")), base: base)
        else { return }
        draft!.media.append((found, attributes.value(XMLName("", "isDefault"))?.lowercased() == "true"))
    }

    /// An enclosure from its attributes, or nil (with the reason kept) when it cannot be used.
    private func enclosure(url: String?, type: String?, length: String?, base: String?) -> FeedEnclosure? {
        guard let url, !url.trimmingFeedWhitespace().isEmpty else {
            draft!.dropped.append("an enclosure without a URL")
            return nil
        }
        let shown = TextQuoting.quoted(url)
        guard url.utf8.count <= limits.maximumURLBytes, let resolved = FeedURL.resolve(url, against: base) else {
            draft!.dropped.append(url.utf8.count > limits.maximumURLBytes
                ? "an enclosure URL longer than \(limits.maximumURLBytes) bytes"
                : "the enclosure \(shown), a relative URL with nothing to resolve it against")
            return nil
        }
        guard resolved.utf8.count <= limits.maximumURLBytes else {
            draft!.dropped.append("an enclosure URL longer than \(limits.maximumURLBytes) bytes")
            return nil
        }
        guard FeedURL.isHTTP(resolved) else {
            draft!.dropped.append("the enclosure \(TextQuoting.quoted(resolved)), which is not an http or https URL")
            return nil
        }
        let mediaType = type.flatMap { type in
            let bare = type.split(separator: ";").first.map { $0.trimmingFeedWhitespace().lowercased() } ?? ""
            return bare.isEmpty || bare.utf8.count > 255 ? nil : bare
        }
        let bytes = length.flatMap { Int64($0.trimmingFeedWhitespace()) }.flatMap { $0 > 1 ? $0 : nil }
        return FeedEnclosure(url: resolved, mediaType: mediaType, length: bytes)
    }

    private func store(_ field: Field, _ text: String) {
        let trimmed = text.trimmingFeedWhitespace()
        switch field {
        case .feedTitle: title = Self.collapsingWhitespace(trimmed)
        case .newFeedURL:
            if let resolved = FeedURL.resolve(trimmed, against: feedURL), FeedURL.isHTTP(resolved) { newFeedURL = resolved }
        case .title: if draft?.title == nil { draft?.title = Self.collapsingWhitespace(trimmed) }
        case .itunesTitle: draft?.itunesTitle = Self.collapsingWhitespace(trimmed)
        case .guid: draft?.guid = trimmed
        case .published: if draft?.published == nil { draft?.published = trimmed }
        case .updated: draft?.updated = trimmed
        case .episode: draft?.episode = trimmed
        case .season: draft?.season = trimmed
        case .duration: draft?.duration = trimmed
        }
    }

    private func finish(_ draft: Draft) -> FeedItem {
        let title = [draft.title, draft.itunesTitle].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let named = title.isEmpty ? "an item without a title" : "the item \(TextQuoting.quoted(title))"
        var published: FeedDate?
        if let text = draft.published ?? draft.updated, !text.isEmpty {
            published = FeedDateParser.parse(text) ?? draft.updated.flatMap(FeedDateParser.parse)
            if published == nil {
                warnings.append(FeedWarning(.unreadableDate, "\(subject): \(named) has the date \(TextQuoting.quoted(text)), which cannot be read; it is taken as undated"))
            }
        }
        for reason in draft.dropped {
            warnings.append(FeedWarning(.enclosureDropped, "\(subject): \(named) has \(reason); it is ignored"))
        }
        // A Media RSS group's default first; the same URL offered twice (enclosure and
        // media:content) is one enclosure, with what either says about it.
        let media = draft.media.filter(\.isDefault).map(\.enclosure) + draft.media.filter { !$0.isDefault }.map(\.enclosure)
        var enclosures: [FeedEnclosure] = []
        for enclosure in draft.rss + draft.atom + media {
            if let index = enclosures.firstIndex(where: { $0.url == enclosure.url }) {
                enclosures[index].mediaType = enclosures[index].mediaType ?? enclosure.mediaType
                enclosures[index].length = enclosures[index].length ?? enclosure.length
            } else {
                enclosures.append(enclosure)
            }
        }
        let guid = [draft.guid, draft.about].compactMap { $0 }.first { !$0.isEmpty }
        return FeedItem(
            title: title, guid: guid, published: published, enclosures: enclosures,
            episode: draft.episode.flatMap(Self.wholeNumber), season: draft.season.flatMap(Self.wholeNumber),
            duration: draft.duration.flatMap(Self.seconds)
        )
    }

    private func fieldTooLong(_ what: String) -> FeedError {
        FeedError(.fieldTooLong, "has \(what) longer than \(limits.maximumFieldBytes >> 10) KiB, more than any feed needs")
    }

    /// `text` with each run of white space made one space.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// A whole number from 0 to 1,000,000 ("12", " 3 "); nil otherwise.
    static func wholeNumber(_ text: String) -> Int? {
        Int(text).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
    }

    /// `itunes:duration` in seconds: "HH:MM:SS", "MM:SS" or seconds, fractions dropped.
    static func seconds(_ text: String) -> Int? {
        let whole = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = whole.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) else { return nil }
        return parts.reduce(0) { $0 * 60 + Int($1)! }
    }
}
