internal import CExpat
#if canImport(Glibc)
import Glibc
#endif

/// What ``ExpatParser`` reports, in document order. A throw stops the parse at once.
protocol XMLEventSink: AnyObject {
    /// An element starts; `attributes` is valid only during the call.
    func startElement(_ name: XMLName, attributes: XMLAttributes) throws(FeedError)
    /// The innermost open element ends.
    func endElement() throws(FeedError)
    /// Character data (entities decoded); valid only during the call.
    func characters(_ text: UnsafeBufferPointer<UInt8>) throws(FeedError)
}

/// An element's attributes as expat hands them over: read only during the callback.
struct XMLAttributes {
    fileprivate let pointer: UnsafeMutablePointer<UnsafePointer<XML_Char>?>
    /// The number of attributes.
    let count: Int

    /// The value of the attribute named `name`, or nil.
    func value(_ name: XMLName) -> String? {
        let wanted = name.expatForm
        return wanted.withCString { wanted in
            for index in 0..<count where strcmp(pointer[2 * index]!, wanted) == 0 {
                return String(cString: pointer[2 * index + 1]!)
            }
            return nil
        }
    }
}

/// The one owner of an expat `XML_Parser`, in namespace mode, fed a body in chunks as it
/// arrives (from curl's write callback) and refusing what makes XML dangerous.
///
/// Refused before anything is expanded: any entity declaration in a DTD (billion laughs,
/// external entities such as `file:///etc/passwd`) and any attribute-list declaration (its
/// defaults would add text to every element, the one way left to grow a document). External
/// entities and parameter entities are never loaded: expat does no I/O of its own, no
/// external-entity handler is set, and parameter-entity parsing is off. Caps from
/// ``FeedLimits`` bound bytes, depth and attributes per element; the sink bounds the rest.
///
/// Not thread-safe: one parser is fed from one thread.
final class ExpatParser {
    private let parser: XML_Parser
    private let limits: FeedLimits
    private unowned let sink: any XMLEventSink
    /// Why the parse stopped, when a handler stopped it.
    private(set) var failure: FeedError?
    /// Bytes fed so far.
    private(set) var byteCount = 0
    /// Elements open now.
    private(set) var depth = 0
    /// Whether the root element has started.
    private(set) var sawRoot = false
    /// Where the root element's start tag begins, in bytes from the start of the body.
    private(set) var rootTagOffset: Int?
    /// The prefixes the root element declares ("" for a default namespace).
    private(set) var rootPrefixes: Set<String> = []

    /// A parser that reports to `sink`, which must outlive it.
    init(limits: FeedLimits, sink: any XMLEventSink) {
        guard let parser = XML_ParserCreateNS(nil, XML_Char(bitPattern: XMLName.separator)) else {
            fatalError("expat cannot allocate a parser")
        }
        self.parser = parser
        self.limits = limits
        self.sink = sink
        // The parser is freed in deinit, so it never outlives self: unretained is enough.
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetElementHandler(parser, { data, name, attributes in
            ExpatParser.from(data).started(name!, attributes!)
        }, { data, _ in
            ExpatParser.from(data).ended()
        })
        XML_SetStartNamespaceDeclHandler(parser) { data, prefix, _ in
            let owner = ExpatParser.from(data)
            if owner.depth == 0 { owner.rootPrefixes.insert(prefix.map { String(cString: $0) } ?? "") }
        }
        XML_SetCharacterDataHandler(parser) { data, text, length in
            ExpatParser.from(data).characters(text!, Int(length))
        }
        XML_SetEntityDeclHandler(parser) { data, name, _, _, _, _, _, _, _ in
            ExpatParser.from(data).refuseDeclaration("the entity \(TextQuoting.quoted(String(cString: name!)))")
        }
        XML_SetAttlistDeclHandler(parser) { data, element, attribute, _, _, _ in
            ExpatParser.from(data).refuseDeclaration("defaults for the attribute \(TextQuoting.quoted(String(cString: attribute!))) of \(TextQuoting.quoted(String(cString: element!)))")
        }
        XML_SetUnknownEncodingHandler(parser, { _, name, info in
            ExpatParser.windows1252(name: name!, info: info!)
        }, nil)
    }

    deinit {
        XML_ParserFree(parser)
    }

    /// What went wrong in expat's words, with where, for a ``FeedError`` message.
    struct SyntaxError: Error {
        /// expat's error text, e.g. "mismatched tag".
        var reason: String
        /// The line (1-based) expat stopped at.
        var line: Int
        /// The column (1-based) expat stopped at.
        var column: Int
        /// Whether expat stopped because the body ended too soon.
        var endedEarly: Bool
        /// Whether expat stopped at a prefix no element declared.
        var unboundPrefix = false
    }

    /// The parse failed in a handler (``failure``) or in expat (a ``SyntaxError``).
    enum Failure: Error {
        /// A handler or a cap stopped the parse.
        case refused(FeedError)
        /// expat found the body malformed.
        case syntax(SyntaxError)
    }

    /// Parses the next chunk of the body; `isFinal` when the body is over.
    func parse(_ chunk: UnsafeRawBufferPointer, isFinal: Bool) throws(Failure) {
        if let failure { throw .refused(failure) }
        byteCount += chunk.count
        if byteCount > limits.maximumBytes {
            let cap = limits.maximumBytes >= 1 << 20 ? "\(limits.maximumBytes >> 20) MiB" : "\(limits.maximumBytes) bytes"
            let failure = FeedError(.tooLarge, "is larger than \(cap), the most a feed may be")
            self.failure = failure
            throw .refused(failure)
        }
        // expat takes an int length: feed a huge chunk in parts.
        var rest = chunk
        repeat {
            let part = UnsafeRawBufferPointer(rebasing: rest.prefix(1 << 30))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(part.count))
            let status = XML_Parse(parser, part.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(part.count), isFinal && rest.isEmpty ? 1 : 0)
            if let failure { throw .refused(failure) }
            if status != XML_STATUS_OK {
                let code = XML_GetErrorCode(parser)
                let reason = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                let endedEarly = isFinal && rest.isEmpty && [XML_ERROR_NO_ELEMENTS, XML_ERROR_UNCLOSED_TOKEN, XML_ERROR_PARTIAL_CHAR, XML_ERROR_UNCLOSED_CDATA_SECTION].contains(code)
                throw .syntax(SyntaxError(
                    reason: reason, line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
                    endedEarly: endedEarly || (isFinal && depth > 0), unboundPrefix: code == XML_ERROR_UNBOUND_PREFIX
                ))
            }
        } while !rest.isEmpty
        if isFinal, depth > 0 || !sawRoot {
            throw .syntax(SyntaxError(reason: "no element found", line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1, endedEarly: true))
        }
    }

    /// Parses the next chunk of the body, given as an array.
    func parse(_ chunk: [UInt8], isFinal: Bool) throws(Failure) {
        var failure: Failure?
        chunk.withUnsafeBytes { bytes in
            do throws(Failure) {
                try parse(bytes, isFinal: isFinal)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> ExpatParser {
        Unmanaged<ExpatParser>.fromOpaque(data!).takeUnretainedValue()
    }

    private func stop(_ error: FeedError) {
        guard failure == nil else { return }
        failure = error
        XML_StopParser(parser, 0)
    }

    private func started(_ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>) {
        guard failure == nil else { return }
        depth += 1
        if !sawRoot { rootTagOffset = Int(XML_GetCurrentByteIndex(parser)) }
        sawRoot = true
        if depth > limits.maximumDepth {
            return stop(FeedError(.tooDeep, "nests elements deeper than \(limits.maximumDepth) levels, more than any feed needs"))
        }
        var count = 0
        while attributes[count] != nil {
            count += 2
            if count / 2 > limits.maximumAttributes {
                return stop(FeedError(.tooManyAttributes, "has an element with more than \(limits.maximumAttributes) attributes, more than any feed needs"))
            }
        }
        do throws(FeedError) {
            try sink.startElement(XMLName(expat: name), attributes: XMLAttributes(pointer: attributes, count: count / 2))
        } catch {
            stop(error)
        }
    }

    private func ended() {
        guard failure == nil else { return }
        depth -= 1
        do throws(FeedError) {
            try sink.endElement()
        } catch {
            stop(error)
        }
    }

    private func characters(_ text: UnsafePointer<XML_Char>, _ length: Int) {
        guard failure == nil else { return }
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        do throws(FeedError) {
            try sink.characters(UnsafeBufferPointer(start: bytes, count: length))
        } catch {
            stop(error)
        }
    }

    private func refuseDeclaration(_ what: String) {
        stop(FeedError(.declarations, "declares \(what) in a DTD, which feeds never need and entity bombs and file-reading attacks use"))
    }

    /// Teaches expat windows-1252, which real feeds declare although expat knows only UTF-8,
    /// UTF-16, ISO-8859-1 and US-ASCII.
    private static func windows1252(name: UnsafePointer<XML_Char>, info: UnsafeMutablePointer<XML_Encoding>) -> Int32 {
        let encoding = String(cString: name).lowercased()
        guard ["windows-1252", "cp1252", "x-cp1252", "cp-1252"].contains(encoding) else { return 0 }
        let high: [Int32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
            0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
        ]
        withUnsafeMutableBytes(of: &info.pointee.map) { raw in
            let map = raw.bindMemory(to: Int32.self)
            for byte in 0..<256 {
                map[byte] = (0x80..<0xA0).contains(byte) ? high[byte - 0x80] : Int32(byte)
            }
        }
        info.pointee.data = nil
        info.pointee.convert = nil
        info.pointee.release = nil
        return 1
    }
}
