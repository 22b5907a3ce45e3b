/// What a progress reporter knows about the batch on screen: the files running now, in the
/// order they started, and how the finished ones ended.
///
/// Every update is O(1) (a dictionary keyed by path), so a batch of 10,000 files costs
/// nothing per progress report; only ``activeRows(limit:)`` sorts, and only the rows
/// still running.
public struct ProgressBatch: Sendable {
    /// How the finished files ended.
    public private(set) var tally = ProgressTally()

    private var active: [String: Entry] = [:]
    private var nextSequence = 0

    /// A running file and its place in the start order.
    private struct Entry: Sendable {
        var sequence: Int
        var row: ProgressRow
    }

    /// An empty batch.
    public init() {}

    /// How many files are running or waiting to retry.
    public var activeCount: Int { active.count }

    /// The title a running file was started with, if it is running.
    public func title(of path: String) -> String? {
        active[path]?.row.title
    }

    /// A file started at `time`. Starting a file that is already running (a retry) keeps
    /// its place and its start time and begins its progress again.
    public mutating func start(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?, at time: Duration) {
        if var entry = active[path] {
            entry.row.title = title
            entry.row.restart(receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: time)
            active[path] = entry
            return
        }
        let row = ProgressRow(path: path, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, startedAt: time)
        active[path] = Entry(sequence: nextSequence, row: row)
        nextSequence += 1
    }

    /// A running file received more bytes. Reports for files not running are ignored:
    /// the engine may report once more after a file finished.
    public mutating func update(path: String, receivedBytes: Int64, expectedBytes: Int64?, at time: Duration) {
        active[path]?.row.record(receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: time)
    }

    /// A running file failed and will be tried again after `delay`.
    public mutating func scheduleRetry(path: String, after delay: Duration, reason: String, at time: Duration) {
        active[path]?.row.waitForRetry(at: time + delay, reason: reason)
    }

    /// A file ended; it leaves the running rows and is counted.
    ///
    /// - Returns: How long it took since it first started, or `nil` if it was never
    ///   reported as started.
    @discardableResult
    public mutating func finish(_ result: FileResult, at time: Duration) -> Duration? {
        tally.count(result.outcome)
        guard let entry = active.removeValue(forKey: result.path) else { return nil }
        return time - entry.row.startedAt
    }

    /// The running files in the order they started, at most `limit` of them.
    public func activeRows(limit: Int = .max) -> [ProgressRow] {
        active.values.sorted { $0.sequence < $1.sequence }.prefix(max(0, limit)).map(\.row)
    }
}
