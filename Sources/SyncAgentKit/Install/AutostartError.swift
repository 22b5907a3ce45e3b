/// Why autostart could not be set up or removed, in words a person can act on.
public struct AutostartError: Error, Sendable, Equatable, CustomStringConvertible {
    public typealias Code = ErrorCode<AutostartError>

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

extension ErrorCode where Domain == AutostartError {
    /// The file install would write was changed by someone else; `--force` replaces it.
    public static let editedByHand = Self("edited-by-hand")
    /// The running binary's path cannot be written into a unit or desktop entry.
    public static let unsupportedExecutable = Self("unsupported-executable")
    /// A file or folder could not be read, written or removed.
    public static let fileSystem = Self("file-system")
    /// `systemctl --user` failed.
    public static let systemctl = Self("systemctl")
}
