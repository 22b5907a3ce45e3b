/// What one batch did, as the ``BatchAnnouncer`` needs to know it: each file's result, and
/// the files of the manifest that were not in the batch but still fail from before.
public struct BatchReport: Sendable, Equatable {
    /// A file whose last check failed, outside this batch.
    public struct StillFailing: Sendable, Equatable {
        public var title: String
        public var path: String
        /// Why its last check failed, as it was recorded.
        public var reason: String

        public init(title: String, path: String, reason: String) {
            self.title = title
            self.path = path
            self.reason = reason
        }
    }

    /// Every file the batch tried, in manifest order.
    public var results: [FileResult]
    /// Files of the manifest the batch did not try whose last check failed, in manifest order.
    public var stillFailing: [StillFailing]
    /// The absolute folder the files are kept in (``Manifest/destination``).
    public var destination: String

    public init(results: [FileResult], stillFailing: [StillFailing] = [], destination: String) {
        self.results = results
        self.stillFailing = stillFailing
        self.destination = destination
    }
}
