/// Shows a batch's progress to the user: the engine calls it as transfers start, move,
/// end and wait to retry; `syncagent --once` picks a terminal board or plain lines.
///
/// Files are identified by their absolute destination path (unique within a batch, as in
/// ``FileRecord``). Calls for one batch come from one thread, in order; ``finish()`` and
/// ``restore()`` may come from another (a signal handler's queue), so reporters are
/// `Sendable`. After either of those, further calls are ignored.
public protocol ProgressReporter: Sendable {
    /// The batch will transfer `fileCount` files; called before any of them starts, so the
    /// reporter can count the whole batch.
    func batchPlanned(fileCount: Int)

    /// A transfer began. `receivedBytes` is above zero for a resume; `expectedBytes` is
    /// `nil` when the size is not known. Starting a running file again (a retry) begins
    /// its progress again.
    func transferStarted(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?)

    /// The body of a running transfer's response begins: the file itself is arriving, from
    /// `receivedBytes` (above zero for a resume) out of `expectedBytes`, if known. Not called
    /// for a transfer that ends before any body (unchanged, refused, unreachable). `title` is
    /// the one it started with and `url` where it comes from, given so that a line naming the
    /// file need not look either up.
    func transferReceiving(path: String, title: String, url: String, receivedBytes: Int64, expectedBytes: Int64?)

    /// A running transfer has `receivedBytes` in all (the resumed part included) out of
    /// `expectedBytes`, if known. Cheap enough to call on every libcurl progress callback.
    func transferProgressed(path: String, receivedBytes: Int64, expectedBytes: Int64?)

    /// A transfer will be tried again after `delay`, because of `failure`.
    func transferWillRetry(path: String, after delay: Duration, because failure: TransferFailure)

    /// A file is done with, for this batch: downloaded, unchanged or failed for good. `title`
    /// and `url` as for ``transferReceiving(path:title:url:receivedBytes:expectedBytes:)``
    /// (taken apart rather than as a ``FileResult``, which cost some 900 instructions a file to
    /// make, copy and drop).
    func transferFinished(path: String, title: String, url: String, outcome: TransferOutcome)

    /// The batch is over: shows the summary ("6 files: 4 downloaded (48.2 MB), 1 failed")
    /// and leaves the terminal as it was found (cursor visible).
    func finish()

    /// The batch was cut short (SIGINT): shows what is pending and restores the terminal,
    /// without a summary. Call it from a Dispatch signal source, not from a raw signal
    /// handler; it takes a lock.
    func restore()
}

extension ProgressReporter {
    /// A reporter that shows files only as they come needs nothing in advance.
    public func batchPlanned(fileCount: Int) {}

    /// A reporter that shows only how far each file has come sees the body's start as
    /// progress.
    public func transferReceiving(path: String, title: String, url: String, receivedBytes: Int64, expectedBytes: Int64?) {
        transferProgressed(path: path, receivedBytes: receivedBytes, expectedBytes: expectedBytes)
    }
}
