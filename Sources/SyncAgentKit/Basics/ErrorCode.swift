/// A kind of failure, for code that reacts to it; `Domain` is the error type it belongs to, so
/// each error type has its own set of codes (declared in an `extension ErrorCode where Domain
/// == …`) and they never mix.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    /// A short stable name for logs and tests, e.g. "already-running".
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }
}

/// An error a person reads: a kind for code to react to (``code``) and one sentence to show
/// (``message``). `Domain` is the part of syncagent it comes from, declared as an empty enum
/// beside a type alias (`AgentError`, `ControlError`…) that names the error and the codes it
/// may carry.
public struct DomainError<Domain>: Error, Sendable, Equatable, CustomStringConvertible {
    public typealias Code = ErrorCode<DomainError<Domain>>

    /// The kind of failure, for code that reacts to it.
    public var code: Code
    /// One sentence a person can act on, without a trailing period.
    public var message: String

    /// An error of kind `code`, explained by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The ``message``, for logs.
    public var description: String { message }
}
