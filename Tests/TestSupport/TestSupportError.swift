/// A test helper could not do its job; the message says what and why.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the test log.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
