/// Why the agent cannot start or go on.
public struct AgentError: Error, Sendable, Equatable, CustomStringConvertible {
    public typealias Code = ErrorCode<AgentError>

    public var code: Code
    /// One sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == AgentError {
    /// Another agent of this user holds the lock.
    public static let alreadyRunning = Self("already-running")
    /// The lock file cannot be created or opened.
    public static let cannotLock = Self("cannot-lock")
    /// The control socket cannot be created.
    public static let cannotListen = Self("cannot-listen")
    /// The manifest's folder cannot be watched for edits.
    public static let cannotWatch = Self("cannot-watch")
}
