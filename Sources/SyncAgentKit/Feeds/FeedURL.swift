/// URLs as feeds write them: relative references resolved (RFC 3986 section 5), sloppy
/// characters percent-encoded, the scheme checked. Pure text work, no URL library: what
/// Foundation's `URL` accepts differs between platforms and versions.
enum FeedURL {
    /// The parts of a URL reference.
    struct Parts: Equatable {
        /// The scheme, lowercased; nil for a relative reference.
        var scheme: String?
        /// What follows "//" up to the path; nil when there is no "//".
        var authority: String?
        /// The path, as written (possibly empty).
        var path: String
        /// What follows "?", without it; nil when there is no "?".
        var query: String?
        /// What follows "#", without it; nil when there is no "#".
        var fragment: String?

        /// `text` taken apart as RFC 3986 appendix B does.
        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
               rest[..<colon].first!.isASCII, rest[..<colon].first!.isLetter,
               rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) {
                scheme = rest[..<colon].lowercased()
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        /// The parts put back together.
        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    /// `reference` made absolute against `base` (itself absolute, or nil when unknown), after
    /// trimming white space and percent-encoding what a URL may not hold (spaces, non-ASCII).
    /// Nil when it stays relative.
    static func resolve(_ reference: String, against base: String?) -> String? {
        let cleaned = encodeUnsafeBytes(reference.trimmingFeedWhitespace())
        let ref = Parts(cleaned)
        if ref.scheme != nil { return normalized(ref) }
        guard let base else { return nil }
        let baseParts = Parts(base)
        guard baseParts.scheme != nil else { return nil }
        var target = Parts("")
        target.scheme = baseParts.scheme
        target.fragment = ref.fragment
        if ref.authority != nil {
            target.authority = ref.authority
            target.path = removeDotSegments(ref.path)
            target.query = ref.query
        } else {
            target.authority = baseParts.authority
            if ref.path.isEmpty {
                target.path = baseParts.path
                target.query = ref.query ?? baseParts.query
            } else {
                if ref.path.hasPrefix("/") {
                    target.path = removeDotSegments(ref.path)
                } else {
                    target.path = removeDotSegments(merge(base: baseParts, with: ref.path))
                }
                target.query = ref.query
            }
        }
        return target.text
    }

    /// The lowercase scheme of an absolute URL, or nil.
    static func scheme(of url: String) -> String? {
        Parts(url).scheme
    }

    /// Whether `url` is an absolute http or https URL with a host.
    static func isHTTP(_ url: String) -> Bool {
        let parts = Parts(url)
        guard parts.scheme == "http" || parts.scheme == "https", let authority = parts.authority else { return false }
        let host = authority.split(separator: "@").last.map(String.init) ?? ""
        return !host.isEmpty && !host.hasPrefix(":")
    }

    /// What an episode is known by across query-string changes: host and path, lowercase
    /// scheme and host dropped in favour of one form, without query and fragment (CDNs rotate
    /// `?token=` on every fetch, and feeds move from http to https).
    static func identityKey(of url: String) -> String {
        let parts = Parts(url)
        let host = (parts.authority ?? "").split(separator: "@").last.map { $0.lowercased() } ?? ""
        return host + (parts.path.isEmpty ? "/" : parts.path)
    }

    /// The last path component, percent-decoded when that yields UTF-8; empty when none.
    static func lastPathComponent(of url: String) -> String {
        let path = Parts(url).path
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.percentDecoded() ?? last
    }

    private static func normalized(_ parts: Parts) -> String {
        var parts = parts
        if parts.authority != nil { parts.path = removeDotSegments(parts.path) }
        return parts.text
    }

    private static func merge(base: Parts, with path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 section 5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let absolute = path.hasPrefix("/")
        for (index, segment) in segments.enumerated() {
            if absolute && index == 0 { continue }
            let isLast = index == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }

    /// Percent-encodes bytes that may not appear in a URL as written: controls, space,
    /// non-ASCII and `"<>\^`{|}`. A "%" stays: feeds write both encoded and raw URLs.
    private static func encodeUnsafeBytes(_ text: String) -> String {
        let unsafe: Set<UInt8> = Set("\"<>\\^`{|} ".utf8)
        guard text.utf8.contains(where: { $0 < 0x21 || $0 >= 0x7F || unsafe.contains($0) }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte < 0x21 || byte >= 0x7F || unsafe.contains(byte) {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
