import FoundationEssentials

/// What syncagent remembers about one feed between runs: how to ask for it conditionally,
/// whether its body changed, where it says it moved, and how its last check went.
///
/// Keyed by ``folder``, as a file's record by its path: a feed removed from the manifest and
/// added back finds its history, so nothing is downloaded again.
public struct FeedRecord: Sendable, Equatable {
    /// Where a feed says it lives now.
    public enum Move: String, Sendable {
        /// The server answered 301 or 308.
        case redirect
        /// The feed names a new URL in `itunes:new-feed-url`.
        case newFeedURL = "new-feed-url"
    }

    /// The absolute folder the feed's episodes are kept in.
    public var folder: String
    /// The URL it was last checked at.
    public var url: String
    /// The server's validators for the last body, sent back as a conditional GET.
    public var validators: Validators
    /// The SHA-256 of the last body parsed: an identical body parses nothing. `nil`: never
    /// parsed, so the next good parse is the feed's first sight.
    public var bodySHA256: String?
    /// Where the feed says it moved to, and how it said so; reported, never acted on (the
    /// manifest is the user's).
    public var movedTo: String?
    public var moveKind: Move?
    /// Since when the server answers 410 Gone: the feed is no longer checked.
    public var goneSince: Date?
    /// When the feed was last checked, successfully or not.
    public var lastCheck: Date?
    /// Why the last check failed; nil when it succeeded.
    public var lastError: String?
    /// Failed checks in a row.
    public var failedAttempts: Int
    /// After a transient failure: the earliest moment to check again.
    public var nextAttempt: Date?
    /// The user paused or stopped the feed.
    public var hold: Hold?

    public init(folder: String, url: String, validators: Validators = Validators(), bodySHA256: String? = nil,
                movedTo: String? = nil, moveKind: Move? = nil, goneSince: Date? = nil, lastCheck: Date? = nil,
                lastError: String? = nil, failedAttempts: Int = 0, nextAttempt: Date? = nil, hold: Hold? = nil) {
        precondition((movedTo == nil) == (moveKind == nil), "a move has a place and a kind")
        self.folder = folder
        self.url = url
        self.validators = validators
        self.bodySHA256 = bodySHA256
        self.movedTo = movedTo
        self.moveKind = moveKind
        self.goneSince = goneSince
        self.lastCheck = lastCheck
        self.lastError = lastError
        self.failedAttempts = failedAttempts
        self.nextAttempt = nextAttempt
        self.hold = hold
    }
}
