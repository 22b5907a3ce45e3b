import Foundation

/// One request a ``FaultServer`` saw, logged as its status line went out.
public struct FaultServerRequest: Decodable, Sendable {
    /// When it arrived, in seconds since 1970.
    public let time: Double
    /// "http" or "https": which of the server's ports it came to.
    public let scheme: String
    public let method: String
    /// The path and query as requested.
    public let path: String
    /// How many requests for this path came before it.
    public let index: Int
    /// The status the server answered (0 if it never got that far).
    public let status: Int
    /// Every header field, by lowercased name.
    public let headers: [String: String]

    /// A header field by name, any case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
