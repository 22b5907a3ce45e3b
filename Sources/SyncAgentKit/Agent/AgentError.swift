/// Why the agent cannot start or go on.
public typealias AgentError = DomainError<AgentDomain>

/// Where an ``AgentError`` comes from (see ``DomainError``).
public enum AgentDomain {}

extension ErrorCode where Domain == AgentError {
    /// Another agent of this user holds the lock.
    public static let alreadyRunning = Self("already-running")
    /// The lock file cannot be created or opened.
    public static let cannotLock = Self("cannot-lock")
    /// The control socket cannot be created.
    public static let cannotListen = Self("cannot-listen")
    /// libcurl or libcrypto, which transfers need, cannot be loaded.
    public static let missingLibrary = Self("missing-library")
    /// The manifest's folder cannot be watched for edits.
    public static let cannotWatch = Self("cannot-watch")
}
