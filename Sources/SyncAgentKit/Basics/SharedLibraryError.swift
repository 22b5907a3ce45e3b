/// Why a C library syncagent opens on first use cannot be used.
public typealias SharedLibraryError = DomainError<SharedLibraryDomain>

/// Where a ``SharedLibraryError`` comes from (see ``DomainError``).
public enum SharedLibraryDomain {}

extension ErrorCode where Domain == SharedLibraryError {
    /// The library is not installed, or lacks a function syncagent calls.
    public static let cannotLoad = Self("cannot-load")
}
