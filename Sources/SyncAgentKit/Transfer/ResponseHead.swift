/// The status and header fields of the response a body belongs to.
///
/// Fed header lines as curl delivers them. A status line starts over, so after redirects and
/// `100 Continue` only the final response's fields remain.
struct ResponseHead {
    private(set) var status = 0
    /// The status line's reason phrase ("Not Found"); HTTP/2 sends none.
    private(set) var reason = ""
    /// Whether the status line says HTTP/1.x: one response at a time on a connection, framed
    /// by its length alone.
    private(set) var isHTTP1 = false
    /// Values of the fields anything reads (see ``Field``), by field; a repeated field keeps
    /// its last value. Held inline: a re-check of 10,000 files reads 80,000 header lines, and a
    /// dictionary keyed by name cost a hash and an allocation per kept line. One slot per
    /// ``Field``: a new field needs a larger count (ResponseHeadTests reads every slot).
    private var values = InlineArray<11, String?>(repeating: nil)
    /// Every `Content-Length` value, each field and each item of a comma-separated list, to
    /// find a response whose length is contradictory (see ``framingProblem``).
    private var lengthValues: [String] = []

    /// The fields anything reads. The rest (Server, Date, Cache-Control…) are skipped
    /// without making strings of them.
    enum Field: Int, CaseIterable {
        case etag, lastModified, contentType, contentLength, contentRange, retryAfter, location
        case contentEncoding, transferEncoding, acceptRanges, contentDisposition

        /// The field's name, lowercased.
        var name: StaticString {
            switch self {
            case .etag: "etag"
            case .lastModified: "last-modified"
            case .contentType: "content-type"
            case .contentLength: "content-length"
            case .contentRange: "content-range"
            case .retryAfter: "retry-after"
            case .location: "location"
            case .contentEncoding: "content-encoding"
            case .transferEncoding: "transfer-encoding"
            case .acceptRanges: "accept-ranges"
            case .contentDisposition: "content-disposition"
            }
        }

        /// The field `name` is, compared case-blind byte by byte, or `nil`.
        init?(named name: UnsafeRawBufferPointer) {
            guard let field = Self.allCases.first(where: { $0.name.matchesCaseBlind(name) }) else { return nil }
            self = field
        }
    }

    /// The value of a kept field, `nil` when the response has none.
    @inline(__always)
    subscript(field: Field) -> String? { values[field.rawValue] }

    /// Takes one header line; returns whether it was a status line (a new response).
    @discardableResult
    mutating func consume(line bytes: UnsafeRawBufferPointer) -> Bool {
        consume(Line(bytes))
    }

    /// Takes one header line read with ``Line``; returns whether it was a status line (a new
    /// response).
    ///
    /// The line is read before, outside any access to the head, and changing the head only
    /// stores what was read: a ``Download`` keeps its head in a class, where each access is
    /// checked at run time (about 70 instructions), and a line nothing reads (``Line/skipped``)
    /// then costs none.
    @discardableResult
    mutating func consume(_ line: consuming Line) -> Bool {
        switch consume line {
        case .status(let head):
            self = head
            return true
        case .field(let field, let value, let items):
            if field == .contentLength {
                if let items { lengthValues += items } else { lengthValues.append(value) }
            }
            values[field.rawValue] = value
            return false
        case .skipped:
            return false
        }
    }

    /// One header line as read, before it changes a head (see ``consume(_:)``).
    enum Line {
        /// A status line: the head of a new response, with nothing else yet.
        case status(ResponseHead)
        /// A field anything reads (see ``Field``), with its value; for a `Content-Length`
        /// that is a comma-separated list, its items.
        case field(Field, String, items: [String]?)
        /// A field nothing reads, or the blank line that ends the head.
        case skipped

        /// Whether the line changes nothing (``skipped``).
        var isSkipped: Bool {
            if case .skipped = self { true } else { false }
        }

        /// Reads one line as curl delivers it, its line break included.
        init(_ bytes: UnsafeRawBufferPointer) {
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = UnsafeRawBufferPointer(rebasing: bytes[..<end])
            if ResponseHead.line(line, startsWith: "HTTP/") {
                var head = ResponseHead()
                head.isHTTP1 = ResponseHead.line(line, startsWith: "HTTP/1.")
                head.readStatusLine(line)
                self = .status(head)
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")),
                      let field = Field(named: UnsafeRawBufferPointer(rebasing: line[..<colon])) {
                var start = colon + 1
                var stop = line.count
                while start < stop, isSpaceOrTab(line[start]) { start += 1 }
                while stop > start, isSpaceOrTab(line[stop - 1]) { stop -= 1 }
                let value = String(decoding: line[start..<stop], as: UTF8.self)
                var items: [String]?
                if field == .contentLength, line[start..<stop].contains(UInt8(ascii: ",")) {
                    items = value.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingSpaces()) }
                }
                self = .field(field, value, items: items)
            } else {
                self = .skipped
            }
        }
    }

    /// "HTTP/1.1 404 Not Found", "HTTP/2 200": the code, and the reason phrase if any.
    private mutating func readStatusLine(_ line: UnsafeRawBufferPointer) {
        let space = UInt8(ascii: " ")
        guard var start = line.firstIndex(of: space) else { return }
        while start < line.count, line[start] == space { start += 1 }
        var end = start
        while end < line.count, line[end] != space { end += 1 }
        status = Self.code(UnsafeRawBufferPointer(rebasing: line[start..<end]))
        while end < line.count, line[end] == space { end += 1 }
        if end < line.count { reason = String(decoding: line[end...], as: UTF8.self) }
    }

    /// Whether `line` starts with the bytes of `prefix`: compared byte by byte, as the generic
    /// `starts(with:)` cost 130 instructions a header line.
    private static func line(_ line: UnsafeRawBufferPointer, startsWith prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: count)
        for index in 0..<count where line[index] != bytes[index] { return false }
        return true
    }

    /// The status code `text` is, as `Int(String)` reads it, `0` for none: three digits are
    /// read as they are, without making a string of them first.
    private static func code(_ text: UnsafeRawBufferPointer) -> Int {
        if text.count == 3, text.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return text.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        return Int(String(decoding: text, as: UTF8.self)) ?? 0
    }

    @inline(__always)
    var etag: String? { self[.etag] }
    @inline(__always)
    var lastModified: String? { self[.lastModified] }

    /// The validators of this response, for saving and sending back later.
    @inline(__always)
    var validators: Validators { Validators(etag: etag, lastModified: lastModified) }

    /// The media type without parameters, lowercased: "text/html".
    @inline(__always)
    var mediaType: String? { Self.mediaType(of: self[.contentType]) }

    /// The media type a `Content-Type` value names (see ``mediaType``).
    static func mediaType(of contentType: String?) -> String? {
        contentType.map { value in
            let type = value.utf8.prefix { $0 != UInt8(ascii: ";") }
            return String(Substring(type)).trimmingSpaces().lowercased()
        }
    }

    /// The body's `Content-Encoding` ("gzip", "br, gzip"), lowercased; `nil` when the body is
    /// the resource's bytes as they are (no field, or `identity`).
    ///
    /// This and the other getters a download reads from its head are inlined over the one
    /// field they need, the work in a static function of that field: called on the head a
    /// ``Download`` keeps, a getter of its own took a copy of the whole head (twelve strings
    /// retained and released), four times a file.
    @inline(__always)
    var contentEncoding: String? { Self.encoding(self[.contentEncoding]) }

    /// See ``contentEncoding``.
    private static func encoding(_ field: String?) -> String? {
        guard let value = field?.trimmingSpaces().lowercased(), !value.isEmpty, value != "identity" else { return nil }
        return value
    }

    /// Whether the server serves parts of this resource: it said `Accept-Ranges: bytes`, or it
    /// just answered a `Range` request with one. A server that says neither (Python's
    /// http.server) answers a later `Range` with the whole file, so what arrived is not kept.
    @inline(__always)
    var servesByteRanges: Bool {
        status == 206 || self[.acceptRanges].map { Self.list($0, contains: "bytes") } == true
    }

    /// Whether a comma-separated list of tokens (RFC 9110 §5.6.1) holds `token`, compared
    /// case-blind, spaces around items ignored. On bytes: splitting, trimming and lowercasing
    /// strings cost 6,000 instructions a transfer.
    static func list(_ value: String, contains token: StaticString) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last, isSpaceOrTab(bytes[first]) { first += 1 }
                while last > first, isSpaceOrTab(bytes[last - 1]) { last -= 1 }
                if token.matchesCaseBlind(bytes[first..<last]) { return true }
                start = end + 1
            }
            return false
        }
    }

    /// The body's length, when the response states one clearly (see ``framingProblem``).
    @inline(__always)
    var contentLength: Int64? { Self.agreedLength(lengthValues) }

    /// See ``contentLength``.
    private static func agreedLength(_ lengthValues: [String]) -> Int64? {
        guard let first = lengthValues.first, lengthValues.allSatisfy({ $0 == first }) else { return nil }
        return length(first)
    }

    /// What makes the body's length untrustworthy, completing "the server sent …", or `nil`
    /// when nothing does (RFC 9112 §6.3): two
    /// different `Content-Length` values, one that is not a number, or a `Content-Length`
    /// beside `Transfer-Encoding`, which overrides it — the marks of response splitting and
    /// request smuggling, and of a body that may end anywhere. Such a body is never a file.
    @inline(__always)
    var framingProblem: String? { Self.framingProblem(lengthValues: lengthValues, transferEncoding: self[.transferEncoding]) }

    /// See ``framingProblem``.
    private static func framingProblem(lengthValues: [String], transferEncoding: String?) -> String? {
        let distinct = lengthValues.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if distinct.count > 1 {
            return "contradictory lengths for one response (Content-Length: " + distinct.joined(separator: " and ") + ")"
        }
        if let value = distinct.first, length(value) == nil {
            return "an invalid length (Content-Length: \(value))"
        }
        if !distinct.isEmpty, let encoding = transferEncoding {
            return "both Content-Length and Transfer-Encoding (\(encoding)), so the length of the body is unclear"
        }
        return nil
    }

    /// A `Content-Length` value: digits only (no sign, no spaces), as RFC 9110 §8.6 has it.
    private static func length(_ value: String) -> Int64? {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(value)
    }

    var contentRange: ContentRange? { self[.contentRange].flatMap(ContentRange.init(headerValue:)) }

    /// How long the server asked us to wait: `Retry-After` in seconds or as an HTTP-date.
    func retryAfter(now: Int64) -> Duration? {
        guard let value = self[.retryAfter] else { return nil }
        if let seconds = Int64(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .seconds(max(0, date - now))
    }
}

extension ResponseHead {
    /// Whether this 206 continues a partial of `offset` bytes of the version `partial`
    /// describes: its range starts at `offset` and runs to the end of the file, its length
    /// agrees, and its validator (the kind sent as `If-Range`) is the partial's. Anything else
    /// would put bytes at the wrong place or splice two versions into one file.
    func continues(partialOf offset: Int64, version partial: Validators?) -> Bool {
        guard status == 206, offset > 0, let range = contentRange, range.first == offset else { return false }
        if let complete = range.completeLength, range.last != complete - 1 { return false }
        if let contentLength, contentLength != range.last - range.first + 1 { return false }
        guard let partial else { return true }
        if let etag = partial.etag, !etag.hasPrefix("W/") {
            return self.etag.map { $0 == etag } ?? true
        }
        if let lastModified = partial.lastModified {
            return self.lastModified.map { $0 == lastModified } ?? true
        }
        return true
    }
}

/// A `Content-Range: bytes FIRST-LAST/COMPLETE` header.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    /// The whole representation's length; `nil` when the server sent `*`.
    var completeLength: Int64?

    /// The file's length when this range is all of it, from the first byte to the last.
    var wholeLength: Int64? {
        guard first == 0, let completeLength, last == completeLength - 1 else { return nil }
        return completeLength
    }

    init(first: Int64, last: Int64, completeLength: Int64?) {
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    init?(headerValue: String) {
        guard headerValue.hasPrefix("bytes ") else { return nil }
        let spec = headerValue.dropFirst("bytes ".count)
        let rangeAndLength = spec.split(separator: "/", maxSplits: 1)
        let bounds = rangeAndLength.first?.split(separator: "-", maxSplits: 1) ?? []
        guard rangeAndLength.count == 2, bounds.count == 2,
              let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last
        else { return nil }
        let length = rangeAndLength[1] == "*" ? nil : Int64(rangeAndLength[1])
        if rangeAndLength[1] != "*" && (length == nil || last >= length!) { return nil }
        self.init(first: first, last: last, completeLength: length)
    }
}

private func isSpaceOrTab(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}
