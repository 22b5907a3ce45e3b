/// A test helper could not do its job; the message says what and why.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    /// The kind of failure, for tests that expect one.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. "timed-out".
        public let name: String

        public var description: String { name }

        /// Waiting for a process to say something took longer than allowed.
        public static let timedOut = Code(name: "timed-out")
        /// The process closed its output (usually: it exited) before saying it.
        public static let outputClosed = Code(name: "output-closed")
        /// Anything else: a process would not start, a system call failed.
        public static let failed = Code(name: "failed")
    }

    public var code: Code
    /// What went wrong, for the test log.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A ``Code-swift.struct/failed`` error.
    public init(_ message: String) {
        self.init(.failed, message)
    }

    public var description: String { message }
}
