/// One problem in a manifest: what kind, where (file, line, column) and a sentence for a person.
///
/// Its `description` is GCC-style, so editors and terminals can jump to it:
/// `manifest.yaml:7:5: unknown key "titel" in a file entry; did you mean "title"?`
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, for code that reacts to some kinds differently.
    ///
    /// A struct rather than an enum so kinds can be added without breaking `switch`es.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file could not be read (missing, unreadable, a folder).
        public static let unreadable = Code("unreadable")
        /// The file is larger than any manifest should be.
        public static let tooLarge = Code("tooLarge")
        /// The file has no content (or only comments).
        public static let empty = Code("empty")
        /// YAML that libyaml cannot parse: bad indentation, tabs, unclosed quotes…
        public static let syntax = Code("syntax")
        /// The file is not UTF-8.
        public static let encoding = Code("encoding")
        /// YAML a manifest never needs: anchors, aliases, tags, complex keys, several documents.
        public static let unsupportedYAML = Code("unsupportedYAML")
        /// Lists and mappings nested absurdly deep.
        public static let tooDeep = Code("tooDeep")
        /// A mapping names one key twice.
        public static let duplicateKey = Code("duplicateKey")
        /// A key the manifest format does not have.
        public static let unknownKey = Code("unknownKey")
        /// A value of the wrong kind: text where a number belongs, a list where a mapping does.
        public static let wrongType = Code("wrongType")
        /// A required key is absent (`files`, a file's `url`).
        public static let missingKey = Code("missingKey")
        /// A value of the right kind but not allowed: out of range, badly formed.
        public static let badValue = Code("badValue")
        /// A URL whose scheme is not `http` or `https`.
        public static let unsupportedScheme = Code("unsupportedScheme")
        /// A URL that names no file and an entry without `path` to make up for it.
        public static let missingFileName = Code("missingFileName")
        /// Two entries would write the same file.
        public static let duplicateDestination = Code("duplicateDestination")
        /// One entry's file would sit where another entry needs a folder.
        public static let pathConflict = Code("pathConflict")
        /// Two entries have the same title.
        public static let duplicateTitle = Code("duplicateTitle")
        /// A `path` that is absolute or climbs out of the destination with `..`.
        public static let pathEscapes = Code("pathEscapes")
        /// A control character (tab, newline, escape…) in a title, path or URL.
        public static let controlCharacter = Code("controlCharacter")
        /// A file or folder name of the form syncagent keeps for downloads in progress
        /// (`.NAME.part`, see ``StagingName``).
        public static let reservedName = Code("reservedName")

        /// The code's name, such as `unknownKey`.
        public var description: String { name }
    }

    /// The kind of problem.
    public var code: Code
    /// The manifest's path, as the caller gave it.
    public var file: String
    /// The line of the problem, from 1; 0 when the problem is the file as a whole.
    public var line: Int
    /// The column of the problem, from 1; 0 when the problem is the file as a whole.
    public var column: Int
    /// What is wrong, what was expected and what was found: lowercase start, no final period.
    public var message: String

    /// Makes an error; `line` and `column` count from 1 (0 for the file as a whole).
    public init(code: Code, file: String, line: Int, column: Int, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` for the file as a whole.
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}
