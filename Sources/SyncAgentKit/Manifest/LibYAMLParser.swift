internal import CYAML

/// libyaml's event parser over one in-memory text: the only place that touches libyaml.
///
/// It owns the `yaml_parser_t` and a copy of the input (libyaml keeps pointing into it while
/// it parses) and frees both in `deinit`. Not `Sendable`: a parser is used by one reader at a
/// time, start to end.
///
/// - SeeAlso: https://pyyaml.org/wiki/LibYAML (the event API: `yaml_parser_parse`)
final class LibYAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>

    /// Prepares to parse `bytes`, which must be UTF-8 (anything else is reported as an error).
    init(bytes: [UInt8]) {
        parser = .allocate(capacity: 1)
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        // Fails only when malloc does; there is nothing sensible to go on with.
        guard yaml_parser_initialize(parser) == 1 else {
            fatalError("libyaml could not allocate a parser")
        }
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event of the text; after `.streamEnd` there are no more.
    func nextEvent() throws(LibYAMLFailure) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            throw failure()
        }
        defer { yaml_event_delete(&event) }
        return YAMLEvent(event)
    }

    private func failure() -> LibYAMLFailure {
        let state = parser.pointee
        let kind: LibYAMLFailure.Kind
        switch state.error {
        case YAML_READER_ERROR: kind = .reader
        case YAML_SCANNER_ERROR: kind = .scanner
        case YAML_MEMORY_ERROR: kind = .memory
        default: kind = .parser
        }
        return LibYAMLFailure(
            kind: kind,
            problem: state.problem.map { String(cString: $0) } ?? "unknown problem",
            problemMark: YAMLMark(state.problem_mark),
            problemCharacterIndex: Int(state.problem_mark.index),
            problemOffset: Int(state.problem_offset),
            problemValue: Int(state.problem_value),
            context: state.context.map { String(cString: $0) },
            contextMark: YAMLMark(state.context_mark)
        )
    }
}

/// What libyaml reported when it stopped, before it is turned into a sentence.
struct LibYAMLFailure: Error, Sendable, Equatable {
    /// The libyaml stage that failed.
    enum Kind: Sendable, Equatable {
        /// Decoding the bytes (invalid UTF-8, control characters).
        case reader
        /// Splitting the text into tokens (tabs, quotes, `:` in the wrong place).
        case scanner
        /// Putting tokens together (indentation, missing keys or items).
        case parser
        /// malloc failed.
        case memory
    }

    var kind: Kind
    /// libyaml's own English description, such as "did not find expected key".
    var problem: String
    /// Where the scanner or parser stopped (meaningless for reader errors).
    var problemMark: YAMLMark
    /// `problemMark` as a count of characters from the start of the text.
    var problemCharacterIndex: Int
    /// For reader errors: the byte offset of the bad input.
    var problemOffset: Int
    /// For reader errors: the bad byte or character, or -1.
    var problemValue: Int
    /// What libyaml was doing, such as "while scanning a quoted scalar".
    var context: String?
    /// Where that construct started.
    var contextMark: YAMLMark
}

extension YAMLMark {
    fileprivate init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

extension YAMLEvent {
    fileprivate init(_ event: yaml_event_t) {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            self.init(kind: .streamStart, mark: mark, hasAnchor: false, tag: nil)
        case YAML_STREAM_END_EVENT:
            self.init(kind: .streamEnd, mark: mark, hasAnchor: false, tag: nil)
        case YAML_DOCUMENT_START_EVENT:
            self.init(kind: .documentStart, mark: mark, hasAnchor: false, tag: nil)
        case YAML_DOCUMENT_END_EVENT:
            self.init(kind: .documentEnd, mark: mark, hasAnchor: false, tag: nil)
        case YAML_ALIAS_EVENT:
            self.init(kind: .alias, mark: mark, hasAnchor: false, tag: nil)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            self.init(
                kind: .scalar(text, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE),
                mark: mark, hasAnchor: scalar.anchor != nil, tag: Self.text(scalar.tag)
            )
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            self.init(kind: .sequenceStart, mark: mark, hasAnchor: start.anchor != nil, tag: Self.text(start.tag))
        case YAML_SEQUENCE_END_EVENT:
            self.init(kind: .sequenceEnd, mark: mark, hasAnchor: false, tag: nil)
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            self.init(kind: .mappingStart, mark: mark, hasAnchor: start.anchor != nil, tag: Self.text(start.tag))
        case YAML_MAPPING_END_EVENT:
            self.init(kind: .mappingEnd, mark: mark, hasAnchor: false, tag: nil)
        default:
            fatalError("libyaml returned an event of unknown type \(event.type.rawValue)")
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
