/// An HTTP version identity: what `If-None-Match`, `If-Modified-Since` and `If-Range` send back.
public struct Validators: Sendable, Equatable {
    /// The `ETag` header as the server sent it, quotes and `W/` included.
    public var etag: String?
    /// The `Last-Modified` header as the server sent it (an HTTP-date).
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to send back.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// What `If-Range` sends to continue a partial of this version: a strong `ETag`, else
    /// `Last-Modified`; `nil` when the partial cannot be continued safely (a weak `ETag`
    /// alone cannot promise the bytes are the same), and so starts over.
    public var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}
