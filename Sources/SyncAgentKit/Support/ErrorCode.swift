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
