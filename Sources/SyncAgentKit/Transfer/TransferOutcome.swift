/// How one file's transfer ended.
public enum TransferOutcome: Sendable, Equatable {
    /// A new version was put in place.
    case downloaded(bytes: Int64)
    /// The server said the copy on disk is current (304); nothing was written.
    case unchanged
    /// The file could not be brought up to date; the old version, if any, is untouched.
    case failed(TransferFailure)
}

/// Why a transfer failed, in words a person can act on.
public struct TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; decides whether a retry can help.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        /// Whether trying again later may succeed (resets, timeouts, 5xx, 429).
        public let isTransient: Bool

        public var description: String { name }

        public static let network = Code(name: "network", isTransient: true)
        /// The server's name did not resolve: offline, or a network without working DNS,
        /// unless other servers answer meanwhile (then the name itself is wrong).
        public static let nameNotResolved = Code(name: "name-not-resolved", isTransient: true)
        public static let timeout = Code(name: "timeout", isTransient: true)
        public static let serverError = Code(name: "server-error", isTransient: true)
        public static let tooManyRequests = Code(name: "too-many-requests", isTransient: true)
        public static let truncated = Code(name: "truncated", isTransient: true)
        public static let httpStatus = Code(name: "http-status", isTransient: false)
        public static let notFound = Code(name: "not-found", isTransient: false)
        /// 410 Gone: the server says the resource is gone for good.
        public static let gone = Code(name: "gone", isTransient: false)
        public static let checksumMismatch = Code(name: "checksum-mismatch", isTransient: false)
        public static let webPageInsteadOfFile = Code(name: "web-page", isTransient: false)
        public static let tls = Code(name: "tls", isTransient: false)
        public static let redirect = Code(name: "redirect", isTransient: false)
        public static let disk = Code(name: "disk", isTransient: false)
        /// A response no retry will make usable: a header over curl's limits, a body in an
        /// encoding that cannot be decoded, a partial answer to a request for the whole file.
        public static let badResponse = Code(name: "bad-response", isTransient: false)
        /// A response whose length framing contradicts itself (RFC 9112 §6.3).
        public static let badFraming = Code(name: "bad-framing", isTransient: false)
        /// A body longer than the manifest's `max_size` allows.
        public static let tooLarge = Code(name: "too-large", isTransient: false)
    }

    public var code: Code
    /// One short sentence without a trailing period, e.g. "the server answered 404 Not Found".
    public var message: String
    /// How long the server asked us to wait (`Retry-After`), if it said.
    public var retryAfter: Duration?

    public init(_ code: Code, _ message: String, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }

    /// What backoff needs to know of this failure.
    public var retryCause: RetryCause { RetryCause(isTransient: code.isTransient, retryAfter: retryAfter) }
}

/// One file's part in a batch: which file, and how it ended.
public struct FileResult: Sendable, Equatable {
    public var title: String
    /// The absolute path the file is kept at.
    public var path: String
    public var outcome: TransferOutcome
    /// The title of the feed this file is an episode of; nil for a file of the manifest.
    public var feed: String?

    public init(title: String, path: String, outcome: TransferOutcome, feed: String? = nil) {
        self.title = title
        self.path = path
        self.outcome = outcome
        self.feed = feed
    }
}
