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
    /// How many files the batch was planned with; finished and running ones count if more.
    private var plannedCount = 0

    /// A running file and its place in the start order.
    private struct Entry: Sendable {
        var sequence: Int
        var row: ProgressRow
    }

    /// An empty batch.
    public init() {}

    /// How many files are running or waiting to retry.
    public var activeCount: Int { active.count }

    /// The batch will transfer `fileCount` more files, planned before the first starts.
    public mutating func plan(fileCount: Int) {
        plannedCount += fileCount
    }

    /// The title a running file was started with, if it is running.
    public func title(of path: String) -> String? {
        active[path]?.row.title
    }

    /// A file started at `time`. Starting a file that is already running (a retry) keeps
    /// its place and its start time and begins its progress again.
    public mutating func start(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?, at time: Duration) {
        // One search of the path, for a file new or running: a new one is stored with the
        // next sequence number, which no running file has.
        let sequence = nextSequence
        let row = ProgressRow(path: path, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, startedAt: time)
        let isNew = active.inPlace(forKey: path, default: Entry(sequence: sequence, row: row)) { entry in
            guard entry.sequence != sequence else { return true }
            entry.row.title = title
            entry.row.restart(receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: time)
            return false
        }
        if isNew { nextSequence += 1 }
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
    public mutating func finish(path: String, outcome: TransferOutcome, at time: Duration) -> Duration? {
        tally.count(outcome)
        guard let entry = active.removeValue(forKey: path) else { return nil }
        return time - entry.row.startedAt
    }

    /// Where the whole batch stands: files and bytes done, the summed speed, and a guess of
    /// the time left.
    ///
    /// Files not started yet are guessed to be as big as the average of those whose size is
    /// known (unchanged and failed files count as nothing to fetch), which is the best an
    /// ETA can do before their servers answer; with a running file of unknown size there is
    /// no guess.
    public func overall() -> ProgressOverall {
        let done = tally.downloaded + tally.unchanged + tally.failed
        let total = max(plannedCount, done + active.count)
        let rows = active.values.map(\.row)
        let received = tally.downloadedBytes + rows.reduce(0) { $0 + $1.receivedBytes }
        let speeds = rows.compactMap { $0.retry == nil ? $0.bytesPerSecond : nil }
        let speed = speeds.isEmpty ? nil : speeds.reduce(0, +)
        var overall = ProgressOverall(filesDone: done, filesTotal: total, bytesReceived: received, bytesPerSecond: speed)
        let sizes = rows.compactMap(\.expectedBytes)
        guard sizes.count == rows.count else { return overall }
        let queued = total - done - rows.count
        let knownBytes = tally.downloadedBytes + sizes.reduce(0, +)
        if queued == 0 { overall.bytesTotal = knownBytes }
        let known = done + rows.count
        guard let speed, speed >= 1, known > 0 else { return overall }
        let activeLeft = rows.reduce(Int64(0)) { $0 + max(0, ($1.expectedBytes ?? 0) - $1.receivedBytes) }
        let left = Double(activeLeft) + Double(queued) * Double(knownBytes) / Double(known)
        let seconds = left / speed
        if seconds < 1e9 { overall.remainingTime = .milliseconds(Int64((seconds * 1000).rounded(.up))) }
        return overall
    }

    /// The running files in the order they started, at most `limit` of them.
    public func activeRows(limit: Int = .max) -> [ProgressRow] {
        active.values.sorted { $0.sequence < $1.sequence }.prefix(max(0, limit)).map(\.row)
    }
}
