extension Manifest {
    /// One feed to follow (a podcast): each new episode's enclosure is downloaded once into
    /// ``folder``.
    public struct Feed: Sendable, Equatable {
        /// The name the user knows the feed by; shown in status, commands and notifications.
        public var title: String
        /// An absolute `http` or `https` URL (`feed://` and `itpc://` are read as `http://`).
        public var url: String
        /// Where the episodes go, relative to ``Manifest/destination``: normalised, never
        /// absolute, never climbing out with `..`. By default the title, made safe as a name.
        public var folder: String
        /// How an episode's file is named (the extension is added from the URL or type).
        public var name: FileNameTemplate
        /// How many of the newest episodes are downloaded when the feed is first seen; the
        /// older ones are marked skipped.
        public var first: EpisodeCount
        /// How many downloaded episodes are kept; the oldest beyond it are deleted.
        public var keep: EpisodeCount
        /// Episodes published longer ago than this are not downloaded, and downloaded ones
        /// that age past it are deleted; nil: no limit.
        public var maxAge: Duration?
        /// Which kinds of enclosure are downloaded.
        public var types: Set<EnclosureKind>
        /// When the feed is checked: the manifest's schedule with this feed's overrides.
        public var schedule: Schedule
        /// The most bytes one episode may have.
        public var maxSize: Int64

        /// `first` when the manifest does not say: a new subscriber gets a taste, not the
        /// whole back catalogue.
        public static let defaultFirst = EpisodeCount.newest(3)
        /// `types` when the manifest does not say: everything but cover art and other images.
        public static let defaultTypes: Set<EnclosureKind> = [.audio, .video, .other]

        public init(
            title: String, url: String, folder: String, name: FileNameTemplate = .standard, first: EpisodeCount = defaultFirst,
            keep: EpisodeCount = .all, maxAge: Duration? = nil, types: Set<EnclosureKind> = defaultTypes,
            schedule: Schedule = Schedule(), maxSize: Int64 = Limits.defaultMaxSize
        ) {
            self.title = title
            self.url = url
            self.folder = folder
            self.name = name
            self.first = first
            self.keep = keep
            self.maxAge = maxAge
            self.types = types
            self.schedule = schedule
            self.maxSize = maxSize
        }
    }

    /// A number of episodes, or all of them (`first: all`, `keep: 10`).
    public enum EpisodeCount: Sendable, Equatable {
        case all
        case newest(Int)

        /// Whether an episode at `index` (0: the newest) is within the count.
        public func includes(_ index: Int) -> Bool {
            switch self {
            case .all: true
            case .newest(let count): index < count
            }
        }
    }

    /// What an enclosure is, by its media type (or, without one, its file name's extension).
    public enum EnclosureKind: String, Sendable, CaseIterable, Comparable {
        case audio, video, image
        /// Anything else: PDFs, e-books, archives, unknown types.
        case other

        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }
}

extension Manifest {
    /// The absolute folder a feed's episodes are kept in.
    public func folderPath(of feed: Feed) -> String {
        Self.joined(destination, feed.folder)
    }
}
