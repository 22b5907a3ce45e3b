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
}
