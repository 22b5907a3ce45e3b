/// Why autostart could not be set up or removed, in whole sentences that name the file or
/// command and say what to do.
public typealias AutostartError = DomainError<AutostartDomain>

/// Where an ``AutostartError`` comes from (see ``DomainError``).
public enum AutostartDomain {}

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
