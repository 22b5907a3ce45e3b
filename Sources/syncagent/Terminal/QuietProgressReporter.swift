import SyncAgentKit

/// Shows a batch the `--quiet` way: nothing but the files that failed, one line each on
/// standard error ("syncagent: failed: Old Guide: the server answered 404 Not Found
/// (example.org)"), as `curl -sS` shows only its errors. No progress, no summary.
final class QuietProgressReporter: ProgressReporter {
    private let output: FileDescriptorOutput
    private let verbose: Bool

    /// A reporter writing failures to `output` (standard error); `verbose` names their URLs.
    init(output: FileDescriptorOutput = .standardError, verbose: Bool = false) {
        self.output = output
        self.verbose = verbose
    }

    func transferStarted(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?) {}
    func transferProgressed(path: String, receivedBytes: Int64, expectedBytes: Int64?) {}
    func transferWillRetry(path: String, after delay: Duration, because failure: TransferFailure) {}

    func transferFinished(path: String, title: String, url: String, outcome: TransferOutcome) {
        guard case .failed(let failure) = outcome else { return }
        output.write("syncagent: failed: " + ProgressLines.failure(title: title, failure, url: url, verbose: verbose) + "\n")
    }

    func finish() {}
    func restore() {}
}
