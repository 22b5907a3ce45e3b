import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Runs the engine in-process against a ``FaultServer`` and keeps what it reported.
struct FaultRun {
    let recorder: Recorder
    let duration: Duration

    /// Runs `requests` to their end with `attempts` tries each, retry waits from `backoff`,
    /// and no jitter (each wait is the lower half of its step).
    init(
        _ requests: [TransferRequest],
        attempts: Int = 3,
        backoff: ClosedRange<Duration> = .milliseconds(20) ... .seconds(10),
        options: TransferOptions = TransferOptions(),
        limits: Manifest.Limits = Manifest.Limits(concurrent: 4, perHost: 4)
    ) {
        let recorder = Recorder()
        let engine = TransferEngine(
            limits: limits,
            retry: Manifest.RetryPolicy(attempts: attempts, initialBackoff: backoff.lowerBound, maximumBackoff: backoff.upperBound),
            options: options, unitRandom: { 0 }
        ) { recorder.events.append($0) }
        let started = ContinuousClock.now
        engine.run(requests)
        duration = ContinuousClock.now - started
        self.recorder = recorder
    }

    func outcome(_ id: Int = 0) -> TransferOutcome? { recorder.outcome(id) }

    /// The failure request `id` ended with, if it failed.
    func failure(_ id: Int = 0) -> TransferFailure? {
        if case .failed(let failure) = outcome(id) { return failure }
        return nil
    }

    /// The failures that were retried, in order.
    var retriedFailures: [TransferFailure] {
        recorder.events.compactMap { event in
            if case .willRetry(_, _, let failure) = event { return failure }
            return nil
        }
    }
}

/// The contents of a file, or nil when there is none.
func contents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// The hidden partial beside `destination`.
func partialPath(_ destination: String) -> String {
    let url = URL(fileURLWithPath: destination)
    return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".part").path
}

/// The byte offset a `Range: bytes=N-` header asks for.
func rangeStart(_ request: FaultServerRequest) -> Int? {
    guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
    return Int(range.dropFirst("bytes=".count).dropLast())
}
