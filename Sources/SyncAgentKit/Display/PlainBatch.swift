/// What plain progress lines (output that is not a terminal) need to know about a batch: when
/// each running file started and its title, and how the finished ones ended.
///
/// ``ProgressBatch`` keeps a whole ``ProgressRow`` a file, with its speed, for the board to
/// draw; lines need none of it, and making, copying and dropping a row and its place in the
/// start order cost some 1,500 instructions a file in a batch of 10,000.
public struct PlainBatch: Sendable {
    /// How the finished files ended.
    public private(set) var tally = ProgressTally()

    /// The running files, by path.
    private var running: [String: Running] = [:]

    /// A running file.
    private struct Running: Sendable {
        /// When it first started in this batch; a retry keeps it.
        var startedAt: Duration
        /// The name the user knows it by.
        var title: String
    }

    /// An empty batch.
    public init() {}

    /// How many files are running or waiting to retry.
    public var activeCount: Int { running.count }

    /// The title a running file was started with, if it is running.
    public func title(of path: String) -> String? {
        running[path]?.title
    }

    /// A file started at `time`. Starting a file that is already running (a retry) keeps its
    /// start time and takes the new title.
    public mutating func start(path: String, title: String, at time: Duration) {
        // One search of the path, for a file new or running.
        running.inPlace(forKey: path, default: Running(startedAt: time, title: title)) { file in
            file.title = title
        }
    }

    /// A file ended with `outcome`; it leaves the running files and is counted.
    ///
    /// - Returns: How long it took since it first started, or `nil` if it was never reported
    ///   as started.
    @discardableResult
    public mutating func finish(path: String, outcome: TransferOutcome, at time: Duration) -> Duration? {
        tally.count(outcome)
        guard let file = running.removeValue(forKey: path) else { return nil }
        return time - file.startedAt
    }
}
