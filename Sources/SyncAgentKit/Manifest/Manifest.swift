import FoundationEssentials

/// What the user asked for: which files to keep, where, and how to fetch them.
///
/// A `Manifest` is only ever made by ``ManifestLoader`` from a `manifest.yaml` that passed
/// validation, so every value in it is already checked: URLs are http or https, paths stay
/// inside `destination`, no two entries share a destination.
public struct Manifest: Sendable, Equatable {
    /// The absolute folder the files are kept in.
    public var destination: String
    /// The files to keep, in the order the manifest lists them.
    public var files: [Entry]
    public var limits: Limits
    public var retry: RetryPolicy
    /// When files are checked, for files that do not override it.
    public var schedule: Schedule
    /// Whether a finished batch shows a desktop notification.
    public var notify: Bool
    /// Whether a notification asks for a sound, where the desktop plays one (`notify: { sound: false }`).
    public var notifySound = true
    /// The feeds whose new episodes are downloaded, in the order the manifest lists them.
    public var feeds: [Feed]

    public init(
        destination: String,
        files: [Entry],
        limits: Limits = Limits(),
        retry: RetryPolicy = RetryPolicy(),
        schedule: Schedule = Schedule(),
        notify: Bool = true,
        feeds: [Feed] = []
    ) {
        self.destination = destination
        self.files = files
        self.limits = limits
        self.retry = retry
        self.schedule = schedule
        self.notify = notify
        self.feeds = feeds
    }
}

extension Manifest {
    /// One file to keep in step with a URL.
    public struct Entry: Sendable, Equatable {
        /// The name the user knows the file by; shown in progress, status and notifications.
        public var title: String
        /// An absolute `http` or `https` URL.
        public var url: String
        /// Where the file goes, relative to ``Manifest/destination``: normalised, never
        /// absolute, never climbing out with `..`.
        public var path: String
        /// The expected SHA-256 of the whole file, as 64 lowercase hex digits.
        public var sha256: String?
        /// When this file is checked: the manifest's schedule with this entry's overrides applied.
        public var schedule: Schedule
        /// The most bytes this file may have (its own `max_size`, else the manifest's): a
        /// larger one is refused, and a body of no stated length is cut off there.
        public var maxSize: Int64
        /// Whether the server names the file: no `path` was written and the URL names no
        /// file (a script such as `download.php`, or a name without extension), so the
        /// server's `Content-Disposition` name is used once it gives one, and kept. ``path``
        /// is then the name used until then, and when it gives none: from the query, else
        /// the URL's own (``ServedFileName``).
        public var nameFromServer = false

        public init(title: String, url: String, path: String, sha256: String? = nil, schedule: Schedule = Schedule(),
                    maxSize: Int64 = Limits.defaultMaxSize) {
            self.title = title
            self.url = url
            self.path = path
            self.sha256 = sha256
            self.schedule = schedule
            self.maxSize = maxSize
        }
    }

    /// How many transfers may run at once, and how long one may go without receiving.
    public struct Limits: Sendable, Equatable {
        /// Transfers at once, across all hosts.
        public var concurrent: Int
        /// Connections to one host at once (like `HTTPMaximumConnectionsPerHost`).
        public var perHost: Int
        /// A transfer that receives nothing for this long is dropped and retried; `nil`: the
        /// engine's own ``TransferOptions/stallTimeout``.
        public var stallTimeout: Duration?
        /// The most bytes one file may have, for files without their own `max_size`.
        public var maxSize: Int64
        /// How much of the destination's disk stays free (`min_free`); `nil`: the smaller of
        /// 1 GB and 5% of the disk.
        public var minFree: FreeSpaceMargin?
        /// The whole agent's bandwidth budget; unlimited by default.
        public var bandwidth: BandwidthLimit

        /// `max_size` when the manifest does not say: larger than DVD images and long videos,
        /// small enough that a body which never ends stops long before a typical disk is full
        /// (the free-space margin stops it earlier on a fuller one).
        public static let defaultMaxSize: Int64 = 16_000_000_000

        public init(concurrent: Int = 5, perHost: Int = 5, stallTimeout: Duration? = nil, maxSize: Int64 = defaultMaxSize,
                    minFree: FreeSpaceMargin? = nil, bandwidth: BandwidthLimit = BandwidthLimit()) {
            self.concurrent = concurrent
            self.perHost = perHost
            self.stallTimeout = stallTimeout
            self.maxSize = maxSize
            self.minFree = minFree
            self.bandwidth = bandwidth
        }
    }

    /// How transient failures (resets, timeouts, 5xx, 429) are retried.
    public struct RetryPolicy: Sendable, Equatable {
        /// Attempts in all, the first one included.
        public var attempts: Int
        /// The first wait; each later wait doubles, with jitter.
        public var initialBackoff: Duration
        /// No wait is longer than this; a `Retry-After` beyond it ends the retries.
        public var maximumBackoff: Duration

        public init(attempts: Int = 4, initialBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(60)) {
            self.attempts = attempts
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }
}

extension Manifest {
    /// When the agent checks files, the way iOS background fetch decides: how often, not
    /// before when, only inside which daily window, and whether to wait for good conditions.
    ///
    /// Every entry of a manifest holds one (10,000 in a big one), and most have neither a
    /// `not_before` nor a window: those two live in a shared box that only a schedule with
    /// either has, 32 bytes a schedule instead of 72.
    public struct Schedule: Sendable {
        /// A file in place is checked again this long after its last check.
        public var every: Duration
        /// Whether to wait for mains power and an unmetered network (see ``Conditions``).
        public var discretionary: Bool
        /// ``notBefore`` and ``window``; `nil` when neither is set.
        private var limits: Limits?

        /// No transfer starts before this moment (`earliestBeginDate`).
        public var notBefore: NotBefore? {
            get { limits?.notBefore }
            set { limits = Limits.either(notBefore: newValue, window: window) }
        }

        /// Transfers start only inside this local daily window.
        public var window: DailyWindow? {
            get { limits?.window }
            set { limits = Limits.either(notBefore: notBefore, window: newValue) }
        }

        public init(every: Duration = .seconds(86_400), notBefore: NotBefore? = nil, window: DailyWindow? = nil, discretionary: Bool = false) {
            self.every = every
            self.discretionary = discretionary
            limits = Limits.either(notBefore: notBefore, window: window)
        }

        /// The box of ``notBefore`` and ``window``: shared by copies, so never changed.
        private final class Limits: Sendable {
            let notBefore: NotBefore?
            let window: DailyWindow?

            private init(notBefore: NotBefore?, window: DailyWindow?) {
                self.notBefore = notBefore
                self.window = window
            }

            /// A box for these, or none when both are `nil`.
            static func either(notBefore: NotBefore?, window: DailyWindow?) -> Limits? {
                notBefore == nil && window == nil ? nil : Limits(notBefore: notBefore, window: window)
            }
        }
    }

    /// The earliest moment a transfer may start: an exact instant, or a calendar day.
    public enum NotBefore: Sendable, Equatable {
        /// A moment written with its offset, such as `2026-12-01T08:00:00+01:00`.
        case instant(Date)
        /// A day written without a time, such as `2026-12-01`: it begins at local midnight
        /// wherever the agent runs, so the scheduler finds the moment with its time zone.
        case day(CalendarDay)
    }

    /// A daily span of local wall-clock time, such as 01:00–06:00 or 22:00–06:00 (which
    /// crosses midnight). Minutes since local midnight; `start != end`.
    public struct DailyWindow: Sendable, Equatable {
        public var start: Int
        public var end: Int

        public init(start: Int, end: Int) {
            precondition((0..<1440).contains(start) && (0..<1440).contains(end) && start != end, "a window of minutes within one day")
            self.start = start
            self.end = end
        }

        /// Whether the window runs past midnight (22:00–06:00).
        public var crossesMidnight: Bool { end < start }
    }
}

extension Manifest {
    /// The absolute path an entry's file is kept at.
    public func destinationPath(of entry: Entry) -> String {
        Self.joined(destination, entry.path)
    }

    /// `folder` and the relative `path` in it, as one path. Written at once into a string of
    /// the right size: two `+`s grew the string twice, 420 instructions a path, and a round
    /// of 10,000 files makes each path several times.
    static func joined(_ folder: String, _ path: String) -> String {
        var folder = folder
        var path = path
        let slash = folder.utf8.last == UInt8(ascii: "/") ? 0 : 1
        return String(unsafeUninitializedCapacity: folder.utf8.count + slash + path.utf8.count) { buffer in
            var written = folder.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[...]).initialize(fromContentsOf: $0) }
            if slash == 1 {
                buffer[written] = UInt8(ascii: "/")
                written += 1
            }
            written += path.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: $0) }
            return written
        }
    }
}

extension Manifest.Schedule: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.every == b.every && a.discretionary == b.discretionary && a.notBefore == b.notBefore && a.window == b.window
    }
}

extension Manifest.Schedule: CustomStringConvertible {
    /// Every field by name, as a memberwise value would print (test failures show it).
    public var description: String {
        "Schedule(every: \(every), notBefore: \(String(describing: notBefore)), window: \(String(describing: window)), discretionary: \(discretionary))"
    }
}
