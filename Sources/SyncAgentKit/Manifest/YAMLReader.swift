/// Reads UTF-8 YAML into a ``YAMLNode`` tree, refusing what a manifest never needs.
///
/// Refused outright (reading stops): libyaml's own syntax errors, aliases (so no "billion
/// laughs"), non-scalar keys, a second document, and nesting deeper than ``maximumDepth``.
/// Refused but read on, so that one pass reports as much as it can: anchors, tags and
/// duplicate keys (the first value of a key is kept).
enum YAMLReader {
    /// The deepest nesting of mappings and sequences accepted; a manifest needs four.
    static let maximumDepth = 32

    /// What reading found: the document's root node, unless reading had to stop, and every
    /// problem met on the way, in the order met.
    struct Result: Sendable, Equatable {
        /// The document's root, or nil if the text holds no document or reading stopped.
        var root: YAMLNode?
        /// What was refused.
        var problems: [YAMLProblem]
    }

    /// Reads `bytes` as one YAML document.
    static func read(_ bytes: [UInt8]) -> Result {
        var builder = TreeBuilder()
        let parser = LibYAMLParser(bytes: bytes)
        while true {
            let event: YAMLEvent
            do {
                event = try parser.nextEvent()
            } catch {
                var problem = error.explanation(in: bytes)
                problem.mark = min(problem.mark, TextPosition.end(of: bytes))
                return Result(root: nil, problems: builder.problems + [problem])
            }
            if event.kind == .streamEnd {
                return Result(root: builder.root, problems: builder.problems)
            }
            do {
                try builder.accept(event)
            } catch {
                return Result(root: nil, problems: builder.problems + [error])
            }
        }
    }
}

/// Puts events together into nodes with an explicit stack, so depth costs no recursion.
private struct TreeBuilder {
    /// A mapping or sequence still being read. Mutated in place on the stack, so appending
    /// stays O(1) however long the list.
    private struct Frame {
        var mark: YAMLMark
        var isMapping: Bool
        var items: [YAMLNode] = []
        var entries: [YAMLMappingEntry] = []
        var pendingKey: PendingKey?
        /// The line of each key in `entries`, made only for a long mapping: a short one (a
        /// file entry) is searched in place, which costs less than hashing into a dictionary.
        var lineOfKey: [String: Int]?
    }

    /// Mappings with this many keys look further keys up in ``Frame/lineOfKey``.
    private static let longestSearchedMapping = 16

    private struct PendingKey {
        var text: String
        var mark: YAMLMark
        /// A repeated key: its value is read (it may hold problems too) but then dropped.
        var isDuplicate: Bool
    }

    /// What libyaml expands the `!!` tag handle to.
    private static let coreSchemaPrefix = "tag:yaml.org,2002:"

    private(set) var root: YAMLNode?
    private(set) var problems: [YAMLProblem] = []
    private var stack: [Frame] = []
    private var documents = 0

    mutating func accept(_ event: YAMLEvent) throws(YAMLProblem) {
        if event.hasAnchor {
            problems.append(YAMLProblem(kind: .unsupported, mark: event.mark, message: "anchors (&name) are not supported in a manifest; write the value out in full"))
        }
        if let tag = event.tag {
            // libyaml hands over "!!str" resolved; show it the way it was most likely written.
            let shown = tag.hasPrefix(Self.coreSchemaPrefix) ? "!!" + tag.dropFirst(Self.coreSchemaPrefix.count) : tag
            problems.append(YAMLProblem(kind: .unsupported, mark: event.mark, message: "tags such as \(TextQuoting.quoted(shown)) are not supported in a manifest; remove the tag"))
        }
        switch event.kind {
        case .streamStart, .streamEnd, .documentEnd:
            break
        case .documentStart:
            documents += 1
            if documents > 1 {
                throw YAMLProblem(kind: .unsupported, mark: event.mark, message: "a manifest holds one YAML document, but a second one starts here")
            }
        case .alias:
            throw YAMLProblem(kind: .unsupported, mark: event.mark, message: "aliases (*name) are not supported in a manifest; write the value out in full")
        case .scalar(let text, let isPlain):
            try add(YAMLNode(value: .scalar(text, isPlain: isPlain), mark: event.mark))
        case .sequenceStart:
            try push(Frame(mark: event.mark, isMapping: false))
        case .mappingStart:
            try push(Frame(mark: event.mark, isMapping: true))
        case .sequenceEnd, .mappingEnd:
            let frame = stack.removeLast()
            let value: YAMLNode.Value = frame.isMapping ? .mapping(frame.entries) : .sequence(frame.items)
            try add(YAMLNode(value: value, mark: frame.mark))
        }
    }

    private mutating func push(_ frame: consuming Frame) throws(YAMLProblem) {
        guard stack.count < YAMLReader.maximumDepth else {
            throw YAMLProblem(kind: .tooDeep, mark: frame.mark, message: "lists and mappings are nested more than \(YAMLReader.maximumDepth) levels deep here; a manifest needs four")
        }
        stack.append(frame)
    }

    private mutating func add(_ node: YAMLNode) throws(YAMLProblem) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let key = stack[top].pendingKey {
            if !key.isDuplicate {
                stack[top].entries.append(YAMLMappingEntry(key: key.text, keyMark: key.mark, value: node))
            }
            stack[top].pendingKey = nil
        } else {
            try addKey(node, to: top)
        }
    }

    private mutating func addKey(_ node: YAMLNode, to top: Int) throws(YAMLProblem) {
        guard case .scalar(let key, _) = node.value else {
            let found = if case .sequence = node.value { "list" } else { "mapping" }
            throw YAMLProblem(kind: .unsupported, mark: node.mark, message: "a key must be a name, but this key is a \(found)")
        }
        let firstLine = firstLine(of: key, at: node.mark.line, in: top)
        if let firstLine {
            problems.append(YAMLProblem(kind: .duplicateKey, mark: node.mark, message: "duplicate key \(TextQuoting.quoted(key)); it is already set on line \(firstLine)"))
        }
        stack[top].pendingKey = PendingKey(text: key, mark: node.mark, isDuplicate: firstLine != nil)
    }

    /// The line `key` was first set on in the mapping at `top`, or nil if this (on `line`) is
    /// its first time. A repeated key's value never joins `entries`, so each key there is a
    /// first one.
    private mutating func firstLine(of key: String, at line: Int, in top: Int) -> Int? {
        if stack[top].lineOfKey == nil {
            guard stack[top].entries.count >= Self.longestSearchedMapping else {
                return stack[top].entries.first { $0.key == key }?.keyMark.line
            }
            stack[top].lineOfKey = Dictionary(stack[top].entries.lazy.map { ($0.key, $0.keyMark.line) }, uniquingKeysWith: { first, _ in first })
        }
        if let first = stack[top].lineOfKey?[key] { return first }
        stack[top].lineOfKey?[key] = line
        return nil
    }
}
