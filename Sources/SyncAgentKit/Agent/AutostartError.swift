/// Why autostart could not be set up or removed, in words a person can act on.
public struct AutostartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; decides what the user can do about it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name for logs, e.g. "edited-by-hand".
        public let name: String

        public var description: String { name }

        /// The file install would write was changed by someone else; `--force` replaces it.
        public static let editedByHand = Code(name: "edited-by-hand")
        /// The running binary's path cannot be written into a unit or desktop entry.
        public static let unsupportedExecutable = Code(name: "unsupported-executable")
        /// A file or folder could not be read, written or removed.
        public static let fileSystem = Code(name: "file-system")
        /// `systemctl --user` failed.
        public static let systemctl = Code(name: "systemctl")
    }

    /// What kind of failure it was.
    public var code: Code
    /// Whole sentences that name the file or command and say what to do.
    public var message: String

    /// Describes the failure for people.
    public var description: String { message }

    /// An error of kind `code`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
