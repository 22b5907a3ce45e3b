import FoundationEssentials

/// What syncagent remembers about one file between runs.
///
/// Keyed by ``path``: the identity of a kept file is where it lives on disk.
public struct FileRecord: Sendable, Equatable {
    /// The absolute path the file is kept at.
    public var path: String
    /// The URL it was last fetched from.
    public var url: String
    /// The server's validators for the version in place; sent back as a conditional GET.
    public var validators: Validators
    /// The size of the version in place, in bytes.
    public var size: Int64?
    /// The validators of the hidden partial download, so a resume can send `If-Range`.
    /// `nil` when there is no partial, or when it cannot safely be continued.
    public var partial: Validators?
    /// Failed attempts in a row since the last success.
    public var failedAttempts: Int
    /// How the last attempt ended.
    public var lastResult: LastResult?
    /// After a transient failure: the earliest moment to try again (backoff, or the
    /// server's `Retry-After`). `nil` when nothing is pending.
    public var nextAttempt: Date?
    /// Whether the user paused or stopped the file: held files are not started until the user
    /// starts or resumes them.
    public var hold: Hold?
    /// For an entry named by its server: the file name the server gave (`Content-Disposition`)
    /// the first time it was put in place, in the same folder as ``path``. Kept for good: a
    /// later, different name from the server never renames the file.
    public var servedName: String?
    /// The whole length of the version ``partial`` belongs to, when the server said it.
    public var partialLength: Int64?

    public init(
        path: String,
        url: String,
        validators: Validators = Validators(),
        size: Int64? = nil,
        partial: Validators? = nil,
        failedAttempts: Int = 0,
        lastResult: LastResult? = nil,
        nextAttempt: Date? = nil,
        hold: Hold? = nil,
        servedName: String? = nil,
        partialLength: Int64? = nil
    ) {
        self.path = path
        self.url = url
        self.validators = validators
        self.size = size
        self.partial = partial
        self.failedAttempts = failedAttempts
        self.lastResult = lastResult
        self.nextAttempt = nextAttempt
        self.hold = hold
        self.servedName = servedName
        self.partialLength = partialLength
    }

    /// Where the file is on disk: beside ``path`` under its ``servedName`` when the server
    /// named it, else ``path`` itself.
    public var keptPath: String {
        guard let servedName else { return path }
        return splitPath(path).folder + "/" + servedName
    }
}

/// Why the user holds a file back.
public enum Hold: String, Sendable {
    /// Paused: the partial download is kept, and resuming continues it.
    case paused
    /// Stopped: the partial download was discarded; starting begins again from zero.
    case stopped
}

/// The end of one attempt, kept for `syncagent status`.
public struct LastResult: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case downloaded, unchanged, failed
    }

    public var kind: Kind
    /// For a failure, why (a ``TransferFailure`` message); otherwise `nil`.
    public var message: String?
    public var date: Date

    public init(kind: Kind, message: String? = nil, date: Date) {
        self.kind = kind
        self.message = message
        self.date = date
    }
}
