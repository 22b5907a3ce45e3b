/// One file being transferred, as a progress row shows it: what it is, how far it got,
/// how fast it goes.
///
/// Times are durations since an origin the reporter picks (its start), never clock reads.
public struct ProgressRow: Sendable, Equatable {
    /// A wait before the next attempt, after a transient failure.
    public struct Retry: Sendable, Equatable {
        /// When the next attempt is due.
        public var at: Duration
        /// Why the last attempt failed.
        public var reason: String

        /// A wait that ends at `at`, after a failure for `reason`.
        public init(at: Duration, reason: String) {
            self.at = at
            self.reason = reason
        }
    }

    /// The file's absolute destination path: its identity, unique within a batch.
    public let path: String
    /// The name the user knows the file by, as given (not yet made safe for a terminal).
    public var title: String
    /// Bytes received so far, counting what a resume started from.
    public private(set) var receivedBytes: Int64
    /// The whole file's size, if the server said.
    public private(set) var expectedBytes: Int64?
    /// When the file first started in this batch; a retry keeps it.
    public let startedAt: Duration
    /// Set while the file waits to be tried again.
    public private(set) var retry: Retry?

    private var speed: ProgressSpeedEstimator

    /// A row for a transfer that starts at `time` with `receivedBytes` already on disk.
    public init(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?, startedAt time: Duration) {
        self.path = path
        self.title = title
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.startedAt = time
        self.speed = ProgressSpeedEstimator()
        speed.record(totalBytes: receivedBytes, at: time)
    }

    /// The smoothed speed, or `nil` while too little has been seen.
    public var bytesPerSecond: Double? { speed.bytesPerSecond }

    /// How far along the file is, from 0 to 1, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, max(0, Double(receivedBytes) / Double(expectedBytes)))
    }

    /// The estimated time left, or `nil` when the size or the speed is unknown, or the
    /// transfer is stalled.
    public var remainingTime: Duration? {
        guard let expectedBytes else { return nil }
        let remaining = expectedBytes - receivedBytes
        guard remaining > 0 else { return .zero }
        guard let rate = bytesPerSecond, rate >= 1 else { return nil }
        let seconds = Double(remaining) / rate
        guard seconds < 1e9 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// Takes in a progress report: `receivedBytes` in all, out of `expectedBytes`, at `time`.
    public mutating func record(receivedBytes: Int64, expectedBytes: Int64?, at time: Duration) {
        self.receivedBytes = receivedBytes
        if let expectedBytes { self.expectedBytes = expectedBytes }
        retry = nil
        speed.record(totalBytes: receivedBytes, at: time)
    }

    /// Begins the transfer again (a retry), from `receivedBytes`, at `time`.
    public mutating func restart(receivedBytes: Int64, expectedBytes: Int64?, at time: Duration) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        retry = nil
        speed = ProgressSpeedEstimator()
        speed.record(totalBytes: receivedBytes, at: time)
    }

    /// Marks the file as waiting for another attempt at `time`.
    public mutating func waitForRetry(at time: Duration, reason: String) {
        retry = Retry(at: time, reason: reason)
    }
}
