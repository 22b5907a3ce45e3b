/// Why the agent cannot start or go on.
public struct AgentError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        public let name: String
        /// Another agent of this user holds the lock.
        public static let alreadyRunning = Code(name: "already-running")
        /// The lock file cannot be created or opened.
        public static let cannotLock = Code(name: "cannot-lock")
        /// The control socket cannot be created.
        public static let cannotListen = Code(name: "cannot-listen")
        /// The manifest's folder cannot be watched for edits.
        public static let cannotWatch = Code(name: "cannot-watch")
    }

    public var code: Code
    /// One sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
