/// One request as a real server's access log recorded it, in the same shape for every
/// server a test starts, so one check can run against each.
public struct LoggedRequest: Sendable, Equatable {
    public let method: String
    /// The path asked for, as sent ("/slow/big.bin").
    public let uri: String
    /// The status code answered.
    public let status: Int
    /// The `Range` header sent: "" when there was none, nil when the server does not log
    /// headers (Python's http.server).
    public let range: String?

    public init(method: String, uri: String, status: Int, range: String?) {
        self.method = method
        self.uri = uri
        self.status = status
        self.range = range
    }
}
